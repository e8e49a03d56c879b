/* Row-wise softmax baseline for `gpuoff bench` on the cpu device: out[i] = exp(x[i] - max)
 * / sum, rows over threads, three passes over each row (max, exponentials and their sum,
 * scale). GCC vectorises a max reduction only when told it may (`omp simd reduction(max)`);
 * expf vectorised through glibc's libmvec, declared by hand as in
 * blackscholes_libmvec.c (glibc declares it only under -ffast-math).
 * Built with -O3 -march=native -fopenmp -fno-math-errno, linked with -lmvec (cbuild.py). */
#include <math.h>
#include <stdint.h>

#pragma omp declare simd notinbranch
float expf(float);

void softmax_rows(int64_t rows, int64_t cols, const float *restrict x, float *restrict out)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < rows; i++) {
        const float *xi = x + i * cols;
        float *oi = out + i * cols;
        float top = xi[0];
#pragma omp simd reduction(max : top)
        for (int64_t j = 1; j < cols; j++)
            top = xi[j] > top ? xi[j] : top;
        float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
        for (int64_t j = 0; j < cols; j++) {
            float e = expf(xi[j] - top);
            oi[j] = e;
            sum += e;
        }
        float inv = 1.0f / sum;
        for (int64_t j = 0; j < cols; j++)
            oi[j] *= inv;
    }
}
