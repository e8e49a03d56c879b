# cuda-python ships Cython modules without type information; gpuoff talks to the driver API
# through values it treats as ``Any`` (see gpuoff/runtime/devices/cuda.py).
