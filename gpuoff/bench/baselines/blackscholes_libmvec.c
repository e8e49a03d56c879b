/* Black-Scholes baseline, vectorised: the loop of blackscholes.c under `omp parallel for simd`,
 * with glibc's vector math library (libmvec) declared for expf, logf and erff, as glibc's own
 * <math.h> declares it only under -ffast-math (which would change results: reassociation, no
 * NaN or infinity). libmvec's float functions are within 4 ulp, like any vector math library
 * (gpuoff's own included); the results match NumPy to the suite's tolerance.
 * Built with -O3 -march=native -fopenmp -fno-math-errno, linked with -lmvec -lm (cbuild.py). */
#include <math.h>
#include <stdint.h>

#pragma omp declare simd notinbranch
float expf(float);
#pragma omp declare simd notinbranch
float logf(float);
#pragma omp declare simd notinbranch
float erff(float);

void black_scholes(int64_t n, const float *restrict S, const float *restrict K,
                   const float *restrict T, float r, float v,
                   float *restrict call, float *restrict put)
{
#pragma omp parallel for simd schedule(static)
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
