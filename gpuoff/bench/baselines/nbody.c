/* All-pairs n-body accelerations baseline for `gpuoff bench` on the cpu device (softened
 * gravity, structure of arrays, f32). Built with -O3 -march=native -fopenmp -fno-math-errno
 * (see cbuild.py): without errno, 1 / sqrtf(r2) vectorises. */
#include <math.h>
#include <stdint.h>

void nbody(int64_t n, const float *restrict px, const float *restrict py,
           const float *restrict pz, const float *restrict m,
           float *restrict ax, float *restrict ay, float *restrict az)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        const float xi = px[i], yi = py[i], zi = pz[i];
        float fx = 0.0f, fy = 0.0f, fz = 0.0f;
#pragma omp simd reduction(+ : fx, fy, fz)
        for (int64_t j = 0; j < n; j++) {
            const float dx = px[j] - xi, dy = py[j] - yi, dz = pz[j] - zi;
            const float r2 = dx * dx + dy * dy + dz * dz + 0.001f;
            const float inv = 1.0f / sqrtf(r2);
            const float s = m[j] * inv * inv * inv;
            fx += dx * s;
            fy += dy * s;
            fz += dz * s;
        }
        ax[i] = fx;
        ay[i] = fy;
        az[i] = fz;
    }
}
