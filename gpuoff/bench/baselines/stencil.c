/* 2-D 5-point stencil baseline for `gpuoff bench` on the cpu device.
 * dst = 0.2 * (centre + north + south + west + east) inside, dst = src on the border.
 * Row-major rows x cols float32.
 * Built with -O3 -march=native -fopenmp -fno-math-errno (see cbuild.py). */
#include <stdint.h>

void stencil5(int64_t rows, int64_t cols, const float *restrict src, float *restrict dst)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < rows; i++) {
        const float *c = src + i * cols;
        float *o = dst + i * cols;
        if (i == 0 || i == rows - 1) {
            for (int64_t j = 0; j < cols; j++)
                o[j] = c[j];
            continue;
        }
        const float *n = c - cols;
        const float *s = c + cols;
        o[0] = c[0];
        for (int64_t j = 1; j < cols - 1; j++)
            o[j] = 0.2f * ((((c[j] + n[j]) + s[j]) + c[j - 1]) + c[j + 1]);
        if (cols > 1)
            o[cols - 1] = c[cols - 1];
    }
}
