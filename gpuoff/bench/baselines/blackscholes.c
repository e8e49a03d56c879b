/* Black-Scholes (European call and put) baseline for `gpuoff bench` on the cpu device.
 * The cumulative normal is 0.5 * (1 + erf(d / sqrt(2))), as in the gpuoff kernel.
 * Built with -O3 -march=native -fopenmp -fno-math-errno, linked with libm
 * (see cbuild.py): sqrtf becomes one instruction, expf/logf/erff stay scalar libm calls
 * (the vectorised variant is blackscholes_libmvec.c). */
#include <math.h>
#include <stdint.h>

void black_scholes(int64_t n, const float *restrict S, const float *restrict K,
                   const float *restrict T, float r, float v,
                   float *restrict call, float *restrict put)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        float s = S[i], k = K[i], t = T[i];
        float sqrt_t = sqrtf(t);
        float d1 = (logf(s / k) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
        float d2 = d1 - v * sqrt_t;
        float cnd1 = 0.5f * (1.0f + erff(d1 * 0.70710678f));
        float cnd2 = 0.5f * (1.0f + erff(d2 * 0.70710678f));
        float disc = k * expf(-r * t);
        call[i] = s * cnd1 - disc * cnd2;
        put[i] = disc * (1.0f - cnd2) - s * (1.0f - cnd1);
    }
}
