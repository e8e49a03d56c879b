"""``python -m gpuoff``: the guided tour by default, or any ``gpuoff`` command."""

from __future__ import annotations

import sys

from gpuoff.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["tour"]))
