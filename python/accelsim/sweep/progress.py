"""The sweep's progress display: a tqdm bar in a terminal or a notebook,
nothing when output goes to a file or a pipe, or the user's own callable."""
from __future__ import annotations

import sys


def in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    try:
        ip = shell.get_ipython() if shell else None
    except Exception:  # noqa: BLE001 - any failure means: not a notebook
        return False
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


class Progress:
    """``progress``: None (a bar when stderr is a terminal or in a notebook),
    True / False, or a callable taking a dict (done, total, point, workload,
    status, error) after every finished run."""

    def __init__(self, progress, total: int, done: int, desc: str = "sweep"):
        self.callback = progress if callable(progress) else None
        self.done, self.total, self.errors = done, total, 0
        self.bar = None
        show = (sys.stderr.isatty() or in_notebook()) if progress is None else progress is True
        if show and total > done:
            self.bar = _bar(total, done, desc)

    def update(self, point: int, workload: str, outcome: dict) -> None:
        self.done += 1
        self.errors += outcome["status"] != "ok"
        if self.bar is not None:
            self.bar.update(1)
            if self.errors:
                self.bar.set_postfix(errors=self.errors, refresh=False)
        if self.callback is not None:
            self.callback({"done": self.done, "total": self.total, "point": point,
                           "workload": workload, "status": outcome["status"],
                           "error": outcome.get("error")})

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _bar(total: int, done: int, desc: str):
    if in_notebook():
        import importlib.util

        if importlib.util.find_spec("ipywidgets") is not None:  # the widget bar needs it
            from tqdm.notebook import tqdm as widget_bar

            return widget_bar(total=total, initial=done, desc=desc, unit="run")
    from tqdm import tqdm

    return tqdm(total=total, initial=done, desc=desc, unit="run", file=sys.stderr,
                dynamic_ncols=True)
