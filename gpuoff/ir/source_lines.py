"""The caret block under a run-time error's first line: the user's line from the file, with
carets under the access (``x[i + 1]``) or the condition a check is about, rendered as a
``CompileError``'s location is (``SourceLocation.render``), so every error that points at a
kernel's line looks the same."""

from __future__ import annotations

import linecache

from gpuoff.errors import SourceLocation


def caret_block(filename: str, line: int, col: int, source: str) -> str:
    """``"\\n" + File ... / the line / ^^^`` for the check at ``filename:line``, column
    ``col``; ``""`` when the file's line is not there or is no longer ``source`` (the
    stripped line the check was made from; empty: not known), so no caret ever points at
    other text."""
    text = linecache.getline(filename, line).rstrip("\n")
    if not text.strip() or (source and text.strip() != source.strip()) or col >= len(text):
        return ""
    end = _end_of_subscript(text, col)
    if end is None:  # a statement (a condition): up to its comment and its ':'
        body = text
        hash_at = text.find("#", col)
        if hash_at >= 0 and not any(q in text[col:hash_at] for q in "'\""):
            body = text[:hash_at]
        body = body.rstrip()
        end = len(body) - 1 if body.endswith(":") else len(body)
    return "\n" + SourceLocation(filename, line, col, text, end).render()


def _end_of_subscript(text: str, col: int) -> int | None:
    """The column after the ``]`` closing ``name[...]`` at ``col``, or None if there is none."""
    i = col
    while i < len(text) and (text[i].isalnum() or text[i] in "_."):
        i += 1
    if i == col or i >= len(text) or text[i] != "[":
        return None
    depth = 0
    for j in range(i, len(text)):
        if text[j] in "[(":
            depth += 1
        elif text[j] in "])":
            depth -= 1
            if depth == 0:
                return j + 1
    return None
