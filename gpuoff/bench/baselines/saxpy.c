/* saxpy baselines for `gpuoff bench` on the cpu device.
 * Built at bench time with: cc -O3 -march=native -fopenmp -fno-math-errno -shared -fPIC
 * (see cbuild.py). */
#include <stdint.h>

/* y = a * x + y over all cores (OpenMP threads = cores). */
void saxpy(int64_t n, float a, const float *restrict x, float *restrict y)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

/* The same on the calling thread: the floor of a ctypes call for the launch-overhead case. */
void saxpy_serial(int64_t n, float a, const float *restrict x, float *restrict y)
{
    for (int64_t i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
