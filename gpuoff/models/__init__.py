"""Whole models run as gpuoff kernels (layer 5: they use the runtime as any user does).

``gpuoff.models.minilm``: the all-MiniLM-L6-v2 sentence encoder (``examples/embed.py``).
"""
