/* Inclusive prefix sum (i32) baseline for `gpuoff bench` on the cpu device: the classic
 * two-pass OpenMP scan. Each thread scans its contiguous chunk (a sequential running sum,
 * which the compiler keeps in a register), the threads' totals are scanned after a barrier,
 * and each thread adds the total of the chunks before it to its own.
 * Built with -O3 -march=native -fopenmp -fno-math-errno (see cbuild.py). */
#include <stdint.h>
#include <stdlib.h>
#include <omp.h>

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
        int32_t sum = 0;
        for (int64_t i = lo; i < hi; i++) {
            sum += x[i];
            out[i] = sum;
        }
        totals[t + 1] = sum;
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
