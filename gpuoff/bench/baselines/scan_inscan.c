/* Inclusive prefix sum (i32) baseline, vectorised: the two-pass OpenMP scan of scan.c, its
 * per-thread pass written as an OpenMP 5 `simd reduction(inscan, +)` loop, which GCC turns
 * into an in-register log-step scan (the plain running sum of scan.c stays scalar).
 * Built with -O3 -march=native -fopenmp -fno-math-errno (see cbuild.py). */
#include <stdint.h>
#include <stdlib.h>
#include <omp.h>

static int32_t scan_chunk(int64_t lo, int64_t hi, const int32_t *restrict x,
                          int32_t *restrict out)
{
    int32_t sum = 0;
#pragma omp simd reduction(inscan, + : sum)
    for (int64_t i = lo; i < hi; i++) {
        sum += x[i];
#pragma omp scan inclusive(sum)
        out[i] = sum;
    }
    return sum;
}

void scan_i32(int64_t n, const int32_t *restrict x, int32_t *restrict out)
{
    int max_threads = omp_get_max_threads();
    int32_t *totals = calloc((size_t)max_threads + 1, sizeof(int32_t));
    if (totals == NULL)
        return;
#pragma omp parallel
    {
        int t = omp_get_thread_num();
        int threads = omp_get_num_threads();
        int64_t lo = n * t / threads, hi = n * (t + 1) / threads;
        totals[t + 1] = scan_chunk(lo, hi, x, out);
#pragma omp barrier
        int32_t offset = 0;
        for (int k = 1; k <= t; k++)
            offset += totals[k];
        if (offset != 0) {
#pragma omp simd
            for (int64_t i = lo; i < hi; i++)
                out[i] += offset;
        }
    }
    free(totals);
}
