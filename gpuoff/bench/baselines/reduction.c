/* Sum reduction (f32) baseline for `gpuoff bench` on the cpu device: each thread sums its
 * share with a SIMD reduction, then the partial sums are combined (OpenMP reduction).
 * Built with -O3 -march=native -fopenmp -fno-math-errno (see cbuild.py). */
#include <stdint.h>

float sum_f32(int64_t n, const float *restrict x)
{
    float total = 0.0f;
#pragma omp parallel for simd reduction(+ : total) schedule(static)
    for (int64_t i = 0; i < n; i++)
        total += x[i];
    return total;
}
