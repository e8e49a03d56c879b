"""The mypy plugin entry users name: ``plugins = ["gpuoff.mypy"]`` (docs/static-checking.md).

The checks live in the top-level ``mypy_plugin`` package; this module only re-exports its
entry point so the public name is stable.
"""

from mypy_plugin.plugin import GpuoffPlugin, __version__, plugin

__all__ = ["GpuoffPlugin", "__version__", "plugin"]
