"""How accelsim's warnings read: one line, once.

An ``AccelsimWarning`` names the input it is about (file, line, kernel) in its
text, so the default form, ``path/to/accelsim/module.py:77: AccelsimWarning:
...`` followed by that accelsim source line, only adds noise. ``install``
(called on ``import accelsim``) makes Python print them as ``accelsim: warning:
TEXT``; every other warning keeps the form it had. ``collected`` gathers the
warnings of a piece of work (one sweep run in a worker process, a CLI command
whose output is JSON), so they can be shown once and carried into the output.
"""
from __future__ import annotations

import contextlib
import warnings

from accelsim.errors import AccelsimWarning

_previous = None


def _tidy(message, category, filename, lineno, line=None) -> str:
    if issubclass(category, AccelsimWarning):
        return f"accelsim: warning: {message}\n"
    assert _previous is not None
    return _previous(message, category, filename, lineno, line)


def install() -> None:
    """Print AccelsimWarnings as one line (idempotent; chains to the formatter
    in place before, which formats every other warning)."""
    global _previous
    if warnings.formatwarning is not _tidy:
        _previous = warnings.formatwarning
        warnings.formatwarning = _tidy


def text_of(w: warnings.WarningMessage) -> str:
    """A recorded warning as one line: its text for an AccelsimWarning, else
    'Category: text' (a library's DeprecationWarning says what it is)."""
    message = str(w.message)
    return message if issubclass(w.category, AccelsimWarning) else f"{w.category.__name__}: {message}"


@contextlib.contextmanager
def collected(show: bool = True):
    """Records the warnings raised inside the block into the list it yields
    (each distinct text once, in order). ``show``: each is also shown as it
    happens, through the usual filters (a CLI command); else they are only
    recorded (a sweep run in a worker process, whose parent shows them)."""
    texts: list[str] = []

    def record(message, category, filename, lineno, file=None, line=None):
        text = text_of(warnings.WarningMessage(message, category, filename, lineno))
        if text not in texts:
            texts.append(text)
            if show:
                shown(message, category, filename, lineno, file, line)

    with warnings.catch_warnings():
        shown = warnings.showwarning
        if not show:
            warnings.simplefilter("always")
        warnings.showwarning = record
        yield texts


def emit_once(texts, seen: set) -> None:
    """Shows the warnings a worker process sent back (their texts), each text
    once per ``seen`` (one sweep), as AccelsimWarnings."""
    for text in texts:
        if text not in seen:
            seen.add(text)
            warnings.warn(text, AccelsimWarning, stacklevel=3)
