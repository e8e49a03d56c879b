"""IR -> artifacts (LLVM IR, object code, PTX, OpenCL C). Pure: never touches a device.

May import ``gpuoff.ir``, ``gpuoff.lang``, ``gpuoff.errors`` and llvmlite; never pyopencl,
cuda-python or ``gpuoff.runtime``.
"""
