# NVRTC as cuda-python exposes it (nvrtcCreateProgram, ...): every entry
# returns a tuple whose first item is an nvrtcResult. Typed as Any on purpose.
from typing import Any

def __getattr__(name: str) -> Any: ...
