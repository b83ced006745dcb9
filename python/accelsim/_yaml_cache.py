"""Bundled YAML files kept parsed between runs.

Every command reads the bundled GPU config and the statistics naming table;
parsing them costs the PyYAML import (~15 ms) plus the parse, a quarter of
``accelsim run``'s start-up over the interpreter's own. The parsed form is
kept as JSON (which the standard library reads in well under a millisecond)
in the user's cache folder: ``$ACCELSIM_CACHE_DIR``, else
``$XDG_CACHE_HOME/accelsim``, else ``~/.cache/accelsim``; setting
``ACCELSIM_CACHE_DIR`` to an empty string turns the cache off.

* An entry is keyed by the file's path, size and modification time and by what
  was kept of it (``kind``): an edited file is parsed again.
* Only data JSON holds exactly is kept (string keys, no dates); anything else
  is parsed every time, as are a user's own files (only files under the
  bundled data folder come here).
* The cache is a speed-up only: a missing, unreadable, corrupt or unwritable
  cache means parsing the file, never an error. Entries are written to a
  temporary file and renamed, so parallel runs never read half an entry.
"""
from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any, Callable

from accelsim._paths import data_dir

#: What an entry's layout is; entries of another format are ignored.
_FORMAT = 1


def cache_dir() -> Path | None:
    """Where parsed files are kept, or None when the cache is off."""
    env = os.environ.get("ACCELSIM_CACHE_DIR")
    if env is not None:
        return Path(env) if env else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "accelsim"


def _key(path: Path, kind: str) -> list | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return [_FORMAT, kind, str(path), st.st_size, st.st_mtime_ns]


def _entry_path(folder: Path, key: list) -> Path:
    # One entry per file and kind, named by a checksum of both (a clash only
    # costs a parse: the whole key is stored and compared), so a new version of
    # a file replaces its old entry; hashlib would add its own import to every start.
    return folder / f"yaml-{Path(key[2]).stem}-{key[1]}-{zlib.crc32(json.dumps(key[:3]).encode()):08x}.json"


def _read(entry: Path, key: list) -> Any:
    try:
        stored = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(stored, dict) or stored.get("key") != key or "value" not in stored:
        return None
    return stored


def _write(folder: Path, entry: Path, key: list, value: Any) -> None:
    import tempfile  # only when an entry is written: it imports a dozen modules

    try:
        text = json.dumps({"key": key, "value": value})
        if json.loads(text)["value"] != value:  # not exactly representable: keep parsing it
            return
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".yaml-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, entry)
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, TypeError, ValueError):
        return  # read-only home, full disk, data JSON cannot hold: parse next time


def bundled_document(path: Path, kind: str, parse: Callable[[Path], Any]) -> Any:
    """``parse(path)`` (JSON-like: dicts, lists, strings, numbers), from the
    cache when ``path`` is a bundled file kept there before. ``kind`` names what
    ``parse`` returns, so two readers of one file keep apart entries."""
    folder = cache_dir()
    path = Path(path)
    if folder is None or not _is_bundled(path):
        return parse(path)
    key = _key(path, kind)
    if key is None:
        return parse(path)
    entry = _entry_path(folder, key)
    stored = _read(entry, key)
    if stored is not None:
        return stored["value"]
    value = parse(path)
    _write(folder, entry, key, value)
    return value


def _is_bundled(path: Path) -> bool:
    try:
        return path.resolve().is_relative_to(data_dir().resolve())
    except (OSError, FileNotFoundError):
        return False
