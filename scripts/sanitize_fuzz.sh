#!/usr/bin/env bash
# The parser fuzzers against an ASan/UBSan build of the Python extension:
# reuses the instrumented core library of scripts/sanitize.sh, compiles the
# pybind11 bindings with the same flags, and runs the fuzz targets that reach
# C++ (trace reader, kernelslist, dict configs, simulations) with libasan
# preloaded. A sanitizer report kills the worker: it is then a finding with
# the input that caused it.
#
#   PYTHON=/usr/bin/python3 scripts/sanitize_fuzz.sh [SECONDS_PER_TARGET] [BUILD_DIR]
# PYTHON may be the development venv: sanitize_ext.sh drops the editable
# install's import hook so that the instrumented copy is the one loaded.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECONDS_PER_TARGET="${1:-60}"
BUILD="${2:-$ROOT/build/sanitize}"
PY="${PYTHON:-python}"
FLAGS="-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
[ -f "$BUILD/libaccelsim_core.a" ] || { echo "run scripts/sanitize.sh first"; exit 2; }

source "$ROOT/scripts/sanitize_ext.sh"  # $BUILD/py: the package with the instrumented extension
"$PY" -c "import accelsim._core as c; assert '$BUILD' in c.__file__, 'not the ASan build: ' + c.__file__"
"$PY" -m accelsim.devtools.fuzz --targets "${TARGETS:-trace_line,trace_header,kernelslist,dict_config,trace_sim,kernelslist_sim}" \
  --per-parser 1000000 --seconds "$SECONDS_PER_TARGET" --seed "${SEED:-7}" --timeout 60 --memory-mb 0 \
  ${JSON:+--json "$JSON"}
