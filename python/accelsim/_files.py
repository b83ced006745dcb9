"""What an input path is, said in words, before anything opens it.

Reading ``/dev/zero`` never ends, opening a named pipe blocks until someone
writes to it, and a folder or a socket is simply not a file: every reader of
user files (configs, traces, profiles, specs) asks ``not_a_file`` first and
names what the path is instead of hanging or saying "no config named"."""
from __future__ import annotations

import errno
import os
import stat

_KINDS = ((stat.S_ISDIR, "a folder"),
          (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISSOCK, "a socket"))


def kind_of(path) -> str | None:
    """'a folder', 'a character device', ... for what ``path`` is (links
    followed); 'a file' for a regular file; None when nothing is there."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # missing, a dangling link, a NUL in the name
        return None
    if stat.S_ISREG(mode):
        return "a file"
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def missing_reason(path) -> str:
    """Why nothing can be found at ``path``: 'no such file or folder', or the
    system's word for a name it refuses ('file name too long')."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.strerror and exc.errno not in (errno.ENOENT, errno.ENOTDIR):
            return exc.strerror[0].lower() + exc.strerror[1:]
    except ValueError:  # a NUL in the name
        return "not a valid file name"
    return "no such file or folder"


def is_regular_file(path) -> bool:
    """``Path.is_file`` that is False, not an OSError, for a name the system
    refuses (longer than NAME_MAX, say): a config name is tried as a path too."""
    return kind_of(path) == "a file"


def not_a_file(path, what: str = "file") -> str | None:
    """Why ``path`` cannot be read as an input ``what`` (e.g. 'is a character
    device, not a config file'; 'does not exist'), or None when it can."""
    kind = kind_of(path)
    if kind == "a file":
        return None
    if kind is None:
        return "does not exist"
    return f"is {kind}, not a {what}"


def refuse_non_file(path, what: str, error) -> None:
    """Raise ``error(message, path=...)`` when ``path`` is there but is not a
    regular file; a missing path is left to the reader's own message."""
    why = not_a_file(path, what)
    if why is not None and why != "does not exist":
        raise error(f"{path}: {why}", path=str(path))
