# The CUDA driver API as cuda-python exposes it (cuInit, cuModuleLoadData, ...): every entry
# returns a tuple whose first item is a CUresult. Typed as Any on purpose.
from typing import Any

def __getattr__(name: str) -> Any: ...
