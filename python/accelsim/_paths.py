"""Where the bundled data (configs, ISA tables, metric maps) lives."""
from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def data_dir() -> Path:
    """The bundled ``configs/`` folder: installed beside the package, or the
    source tree's top-level ``configs/`` when running from a checkout."""
    installed = _HERE / "configs"
    if installed.is_dir():
        return installed
    source = _HERE.parent.parent / "configs"
    if source.is_dir():
        return source
    raise FileNotFoundError(f"accelsim data folder not found beside {_HERE}")
