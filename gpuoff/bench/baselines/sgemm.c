/* Naive sgemm baseline for `gpuoff bench` on the cpu device: C = A @ B, row-major n x n,
 * rows over threads, i-k-j order so the inner loop streams rows of B and C (vectorised).
 * Built with -O3 -march=native -fopenmp -fno-math-errno (see cbuild.py). */
#include <stdint.h>

void sgemm(int64_t n, const float *restrict a, const float *restrict b, float *restrict c)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        float *ci = c + i * n;
        for (int64_t j = 0; j < n; j++)
            ci[j] = 0.0f;
        for (int64_t k = 0; k < n; k++) {
            const float aik = a[i * n + k];
            const float *bk = b + k * n;
            for (int64_t j = 0; j < n; j++)
                ci[j] += aik * bk[j];
        }
    }
}
