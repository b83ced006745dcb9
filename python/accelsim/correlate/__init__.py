"""Correlate simulator statistics with hardware profiler measurements.

``read_profile`` reads nvprof / Nsight Compute CSV exports into a tidy frame,
``load_sim_tidy`` reads a saved simulator result, and ``correlate`` pairs the
two through the metric map (``configs/metrics/default.yaml``) and returns a
:class:`Correlation` with error tables, plots and an HTML report.
"""
from __future__ import annotations

from accelsim.correlate.api import correlate
from accelsim.correlate.errstats import mae, nrmse, pearson
from accelsim.correlate.metricmap import MetricMap, load_metric_map
from accelsim.correlate.names import kernel_key
from accelsim.correlate.profile import read_profile
from accelsim.correlate.result import Correlation
from accelsim.correlate.simresult import SIM_COLUMNS, load_sim_tidy
from accelsim.correlate.widetable import TIDY_COLUMNS

__all__ = ["Correlation", "MetricMap", "SIM_COLUMNS", "TIDY_COLUMNS", "correlate",
           "kernel_key", "load_metric_map", "load_sim_tidy", "mae", "nrmse", "pearson",
           "read_profile"]
