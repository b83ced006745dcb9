"""Write a correlation report: CSV tables, PNG plots and an index.html linking them.

Links are relative, so the folder can be moved, zipped or opened straight from
disk without a server.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

import pandas as pd

from accelsim.correlation.figures import correlation_grid, correlation_scatter

_STYLE = ("body{font-family:sans-serif;margin:2em;max-width:1200px}"
          "table{border-collapse:collapse;font-size:13px}"
          "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
          "img{max-width:100%}.plots img{width:360px}")


def _safe(name: str) -> str:
    """A file-name-safe version of a counter name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


def write_tables(corr, out_dir: Path) -> dict[str, str]:
    """tables/<name>.csv for every table; name -> relative path."""
    (out_dir / "tables").mkdir(parents=True, exist_ok=True)
    written = {}
    for name, frame in corr.tables().items():
        relative = f"tables/{name}.csv"
        frame.to_csv(out_dir / relative, index=False)
        written[name] = relative
    return written


def write_plots(corr, out_dir: Path) -> dict[str, str]:
    """plots/<counter>.png per counter and plots/all_counters.png; name -> relative path."""
    (out_dir / "plots").mkdir(parents=True, exist_ok=True)
    written: dict[str, str] = {}
    if corr.table.empty:
        return written
    titles = corr.titles()
    relative = "plots/all_counters.png"
    units = corr.units()
    correlation_grid(corr.table, titles=titles, units=units).savefig(out_dir / relative)
    written["all_counters"] = relative
    for counter in dict.fromkeys(corr.table["counter"]):
        relative = f"plots/{_safe(counter)}.png"
        correlation_scatter(corr.table, counter, title=titles.get(counter),
                            unit=units.get(counter, "")).savefig(out_dir / relative)
        written[counter] = relative
    return written


def _frame_html(frame: pd.DataFrame) -> str:
    if frame.empty:
        return "<p><em>none</em></p>"
    return frame.to_html(index=False, float_format=lambda v: f"{v:.4g}", na_rep="",
                         border=0)


def _page(corr, tables: dict[str, str], plots: dict[str, str]) -> str:
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>accelsim correlation"
             f"</title><style>{_STYLE}</style></head><body><h1>Hardware vs simulator</h1>"]
    parts.append("<h2>Summary</h2>" + _frame_html(corr.summary))
    if "all_counters" in plots:
        parts.append(f"<p><a href='{plots['all_counters']}'><img alt='all counters' "
                     f"src='{plots['all_counters']}'></a></p>")
    parts.append("<h2>Per counter</h2><div class='plots'>")
    parts += [f"<a href='{path}'><img alt='{html.escape(name)}' src='{path}'></a>"
              for name, path in plots.items() if name != "all_counters"]
    parts.append("</div><h2>Worst outliers</h2>" + _frame_html(corr.outliers))
    parts.append("<h2>Unmatched kernels</h2>" + _frame_html(corr.unmatched))
    parts.append("<h2>Counters without a comparison</h2>" + _frame_html(corr.missing))
    parts.append("<h2>Tables (CSV)</h2><ul>")
    parts += [f"<li><a href='{path}'>{html.escape(name)}</a></li>" for name, path in tables.items()]
    parts.append("</ul></body></html>")
    return "\n".join(parts)


def write_report(corr, out_dir: Path) -> Path:
    """Write everything into ``out_dir`` (created if needed); returns index.html."""
    out_dir.mkdir(parents=True, exist_ok=True)
    tables, plots = write_tables(corr, out_dir), write_plots(corr, out_dir)
    index = out_dir / "index.html"
    index.write_text(_page(corr, tables, plots), encoding="utf-8")
    return index
