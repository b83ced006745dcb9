#!/usr/bin/env bash
# PTX mode under ASan/UBSan: the PTX pytest files and the PTX fuzz targets
# (parser, damaged PTX emulated, generated kernels against the reference)
# run on the instrumented core of scripts/sanitize.sh through an extension
# built with the same flags. A sanitizer report aborts the process: a failed
# test, or a fuzz finding with the input that caused it.
#
#   scripts/sanitize_ptx.sh [SECONDS_PER_FUZZ_TARGET] [BUILD_DIR]   (after scripts/sanitize.sh)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECONDS_PER_TARGET="${1:-60}"
BUILD="${2:-$ROOT/build/sanitize}"
PY="${PYTHON:-python}"
FLAGS="-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
[ -f "$BUILD/libaccelsim_core.a" ] || { echo "run scripts/sanitize.sh first"; exit 2; }

now() { date +%s.%N; }
step() { printf '[sanitize-ptx] %-34s %6.1f s\n' "$1" "$(echo "$(now) - $2" | bc)"; }

t=$(now)
source "$ROOT/scripts/sanitize_ext.sh"  # $BUILD/py: the package with the instrumented extension
step "instrumented extension" "$t"
"$PY" -c "import accelsim._core as c; assert '$BUILD' in c.__file__, 'not the ASan build: ' + c.__file__"

# The PTX tests, minus those that only run ptxas/nvdisasm or time long benches.
t=$(now)
cd "$ROOT"
"$PY" -m pytest -q -p no:cacheprovider -m "not slow" \
  tests/test_ptx_errors.py tests/test_ptx_run_control.py tests/test_ptx_device_input.py \
  tests/test_ptx_kernels.py tests/test_ptx_more_kernels.py tests/test_ptx_barriers.py tests/test_ptx_half.py \
  tests/test_ptx_copies.py tests/test_ptx_stream.py tests/test_ptx_api.py tests/test_ptx_records.py \
  tests/test_ptx_device_state.py | tail -n 3
step "PTX tests under ASan/UBSan" "$t"

t=$(now)
"$PY" -m accelsim.devtools.fuzz --targets ptx_parse,ptx_run,ptx_emulator --slow --per-parser 1000000 \
  --seconds "$SECONDS_PER_TARGET" --seed "${SEED:-7}" --timeout 120 --memory-mb 0 ${JSON:+--json "$JSON"}
step "PTX fuzz targets under ASan/UBSan" "$t"
echo "[sanitize-ptx] clean"
