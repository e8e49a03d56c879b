"""The gpuoff mypy plugin: aliasing, use after move, kernel-subset and Borrow-write checks.

Users enable it as ``plugins = ["gpuoff.mypy"]``; this package holds the checks, one module
each (``launch``, ``moves``, ``kernel_body``), and ``plugin`` only dispatches.
"""

from mypy_plugin.plugin import GpuoffPlugin, plugin

__all__ = ["GpuoffPlugin", "plugin"]
