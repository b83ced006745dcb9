"""Helpers shared by the result figures."""
from __future__ import annotations

from accelsim._headless import new_figure

__all__ = ["as_list", "new_figure", "stream_label"]


def as_list(results) -> list:
    """One result, a list of them, or {title: result} as [(title, result)]."""
    if isinstance(results, dict):
        return list(results.items())
    if isinstance(results, (list, tuple)):
        return [(getattr(r, "name", None) or f"run {i}", r) for i, r in enumerate(results)]
    return [(None, results)]


def stream_label(stream_id, slot: int) -> str:
    """A short axis label for a CUDA stream: real streams are 14-digit handles
    (``94245263704768``), so it is named by its slot (order of first use) and
    the handle's last digits; small ids (0, 1, 2) are shown as they are."""
    sid = int(stream_id)
    if 0 <= sid < 1000:
        return f"stream {sid}"
    return f"stream #{slot} (..{str(sid)[-4:]})"
