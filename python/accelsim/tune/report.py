"""What a tuning run reports: tables as DataFrames and one HTML page."""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class TuneReport:
    benchmarks: Any               # DataFrame: one row per microbenchmark with a twin
    fits: Any                     # DataFrame: one row per calibrated parameter
    search: Any                   # DataFrame: the search's scores per combination (best first), or None
    provenance: Any               # DataFrame: every value the tuner wrote and where it came from
    config_name: str = ""
    base_name: str = ""
    notes: list = field(default_factory=list)

    @property
    def modelled(self):
        """Rows of the benchmarks the simulator models (the acceptance set)."""
        return self.benchmarks[self.benchmarks["modelled"]]

    @property
    def ok(self) -> bool:
        """Every modelled benchmark within its tolerance after tuning."""
        return bool(self.modelled["within"].all())

    @property
    def search_choice(self) -> dict:
        if self.search is None or not len(self.search):
            return {}
        keys = [c for c in self.search.columns if not c.endswith(("_sim", "_err_pct"))
                and c not in ("mean_abs_err_pct", "pearson_r", "changes")]
        return {k: _plain(self.search.loc[0, k]) for k in keys}

    def to_html(self, path=None) -> str:
        parts = [f"<h1>accelsim tune: {html.escape(self.config_name)} "
                 f"(from {html.escape(self.base_name)})</h1>",
                 f"<p>All modelled microbenchmarks within tolerance: <b>{self.ok}</b></p>"]
        parts += [f"<p>{html.escape(n)}</p>" for n in self.notes]
        for title, frame in (("Microbenchmarks: hardware, simulated before and after tuning", self.benchmarks),
                             ("Calibration loops", self.fits),
                             ("Search: scores per combination (best first)", self.search),
                             ("Where every value came from", self.provenance)):
            parts.append(f"<h2>{title}</h2>")
            parts.append(frame.to_html(index=False, float_format=lambda v: f"{v:.4g}")
                         if frame is not None and len(frame) else "<p>(none)</p>")
        page = "<!doctype html><meta charset='utf-8'><title>accelsim tune</title>\n" + "\n".join(parts)
        if path is not None:
            Path(path).write_text(page)
        return page

    def save(self, folder) -> Path:
        """``folder/report.html`` plus each table as CSV beside it."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("benchmarks", "fits", "search", "provenance"):
            frame = getattr(self, name)
            if frame is not None:
                frame.to_csv(folder / f"{name}.csv", index=False)
        self.to_html(folder / "report.html")
        return folder

    def __repr__(self) -> str:
        return (f"<TuneReport {self.config_name}: {len(self.benchmarks)} benchmarks, "
                f"{int(self.modelled['within'].sum())}/{len(self.modelled)} modelled within tolerance, "
                f"{0 if self.search is None else len(self.search)} search points>")


def _plain(value):
    return value.item() if hasattr(value, "item") else value
