# Partial stubs for llvmlite 0.50 (the parts gpuoff uses); see docs/static-checking.md.
__version__: str
