/* 256-bin histogram baseline for `gpuoff bench` on the cpu device: one private histogram
 * per thread, merged with atomics at the end (the same privatisation as the gpuoff kernel's
 * work-group histograms).
 * Built with -O3 -march=native -fopenmp -fno-math-errno (see cbuild.py). */
#include <stdint.h>
#include <string.h>

void histogram256(int64_t n, const uint8_t *restrict data, uint32_t *restrict bins)
{
    memset(bins, 0, 256 * sizeof(uint32_t));
#pragma omp parallel
    {
        uint32_t local[256] = {0};
#pragma omp for schedule(static) nowait
        for (int64_t i = 0; i < n; i++)
            local[data[i]]++;
        for (int b = 0; b < 256; b++) {
#pragma omp atomic
            bins[b] += local[b];
        }
    }
}
