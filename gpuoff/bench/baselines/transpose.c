/* Tiled matrix transpose baseline for `gpuoff bench` on the cpu device: out = a.T for a
 * row-major rows x cols float32 matrix, the algorithm of the gpuoff kernel: each 32 x 32
 * block is read row by row into a padded local tile, then written out row by row from the
 * tile's columns, so both the reads and the writes stream. (Copying element by element in
 * blocks, without the tile, was 2-10x slower here: the written column's lines, 4 KiB apart,
 * fight over the same cache sets.) Block rows over threads.
 * Built with -O3 -march=native -fopenmp -fno-math-errno (see cbuild.py). */
#include <stdint.h>

#define B 32

void transpose(int64_t rows, int64_t cols, const float *restrict a, float *restrict out)
{
#pragma omp parallel for schedule(static)
    for (int64_t ib = 0; ib < rows; ib += B) {
        float tile[B][B + 1];
        int64_t ie = ib + B < rows ? ib + B : rows;
        for (int64_t jb = 0; jb < cols; jb += B) {
            int64_t je = jb + B < cols ? jb + B : cols;
            for (int64_t i = ib; i < ie; i++)
                for (int64_t j = jb; j < je; j++)
                    tile[i - ib][j - jb] = a[i * cols + j];
            for (int64_t j = jb; j < je; j++)
                for (int64_t i = ib; i < ie; i++)
                    out[j * rows + i] = tile[i - ib][j - jb];
        }
    }
}
