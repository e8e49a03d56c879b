/* Uniform-bin f32 histogram baseline of the lib suite (gl.histogram), np.histogram's rule:
 * values outside [edges[0], edges[nb]] are ignored, the last bin includes its right edge, the
 * bin of v is estimated as (v - lo) / (hi - lo) * nb in f32 and corrected against the edges
 * (as NumPy does). One private histogram per thread (64-bit counts), merged with atomics.
 * Built with -O3 -march=native -fopenmp -fno-math-errno (see cbuild.py). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void histogram_f32(int64_t n, const float *restrict x, int64_t nb, const float *restrict edges,
                   int64_t *restrict counts)
{
    memset(counts, 0, nb * sizeof(int64_t));
    const float lo = edges[0], hi = edges[nb], denom = hi - lo, fnb = (float)nb;
#pragma omp parallel
    {
        int64_t *local = calloc(nb, sizeof(int64_t));
#pragma omp for schedule(static) nowait
        for (int64_t i = 0; i < n; i++) {
            float v = x[i];
            if (v >= lo && v <= hi) {
                int64_t b = (int64_t)((v - lo) / denom * fnb);
                if (b >= nb) b = nb - 1;
                if (v < edges[b]) b--;
                else if (b != nb - 1 && v >= edges[b + 1]) b++;
                local[b]++;
            }
        }
        for (int64_t b = 0; b < nb; b++) {
#pragma omp atomic
            counts[b] += local[b];
        }
        free(local);
    }
}

/* np.bincount of non-negative i32 values into nb >= max + 1 counts (64-bit). */
void bincount_i32(int64_t n, const int32_t *restrict x, int64_t nb, int64_t *restrict counts)
{
    memset(counts, 0, nb * sizeof(int64_t));
#pragma omp parallel
    {
        int64_t *local = calloc(nb, sizeof(int64_t));
#pragma omp for schedule(static) nowait
        for (int64_t i = 0; i < n; i++)
            local[x[i]]++;
        for (int64_t b = 0; b < nb; b++) {
#pragma omp atomic
            counts[b] += local[b];
        }
        free(local);
    }
}
