"""Correlate simulator statistics with hardware profiler measurements.

``read_profile`` reads nvprof / Nsight Compute CSV exports into a tidy frame,
``load_sim_tidy`` reads a saved simulator result, and ``correlate`` pairs the
two through the metric map (``configs/metrics/default.yaml``) and returns a
:class:`Correlation` with error tables, plots and an HTML report.
"""
from __future__ import annotations

from accelsim.correlation.api import correlate
from accelsim.correlation.errstats import mae, nrmse, pearson
from accelsim.correlation.metricmap import MetricMap, load_metric_map
from accelsim.correlation.names import kernel_key
from accelsim.correlation.profile import read_profile
from accelsim.correlation.result import Correlation
from accelsim.correlation.simresult import SIM_COLUMNS, load_sim_tidy
from accelsim.correlation.widetable import TIDY_COLUMNS

__all__ = ["Correlation", "MetricMap", "SIM_COLUMNS", "TIDY_COLUMNS", "correlate",
           "kernel_key", "load_metric_map", "load_sim_tidy", "mae", "nrmse", "pearson",
           "read_profile"]
