"""Counter arrays with named dimensions, and the reductions reports need."""
from __future__ import annotations

import numpy as np


class CounterArray(np.ndarray):
    """A NumPy array of counters that knows its dimension names.

    ``dims``: dimension names in axis order; ``labels``: name -> labels;
    ``kinds``: name -> "instance" | "stream" | "category"; plus ``name``,
    ``component``, ``unit`` and ``doc`` of the family. Only the array handed
    out carries them: a slice or a sum is a plain view/array of this class
    with ``dims`` None, since its axes no longer match.
    """

    def __array_finalize__(self, obj):
        self.dims = None
        self.labels = None
        self.kinds = None
        self.name = getattr(obj, "name", None)
        self.component = getattr(obj, "component", None)
        self.unit = getattr(obj, "unit", None)
        self.doc = getattr(obj, "doc", None)


def named_view(array: np.ndarray, info: dict, stream_ids=None) -> CounterArray:
    """``array`` (not copied) as a CounterArray described by ``info`` (the
    core's family info). Stream slot labels become CUDA stream ids."""
    view = array.view(CounterArray)
    view.dims = tuple(d["name"] for d in info["dims"])
    view.kinds = {d["name"]: d["kind"] for d in info["dims"]}
    view.labels = {}
    for d in info["dims"]:
        labels = list(d["labels"])
        if d["kind"] == "instance":  # instance indices read better as numbers
            labels = [int(x) for x in labels]
        if d["kind"] == "stream" and stream_ids is not None:
            labels = [int(s) for s in stream_ids][:len(labels)]
        view.labels[d["name"]] = labels
    view.name, view.component = info["name"], info["component"]
    view.unit, view.doc = info["unit"], info["doc"]
    return view


def select_sum(values: np.ndarray, dims: list, labels: dict, select: dict,
               keep: tuple = ()) -> np.ndarray:
    """Sum ``values`` (axes named by ``dims``) over every axis not in ``keep``,
    taking along each axis named in ``select`` only the listed labels.
    Unknown labels are skipped (a family may not use every access type)."""
    out = np.asarray(values, dtype=np.uint64)
    for axis, name in enumerate(dims):
        if name in select:
            wanted = [labels[name].index(x) for x in select[name] if x in labels[name]]
            out = np.take(out, wanted, axis=axis)
    drop = tuple(i for i, name in enumerate(dims) if name not in keep)
    return out.sum(axis=drop, dtype=np.uint64) if drop else out
