#!/usr/bin/env bash
# PTX mode and the CUDA runtime under ASan/UBSan: the PTX pytest files, the
# CUDA runtime's tests (real programs loading an instrumented libcudart) and
# the PTX and fat-binary fuzz targets (parser, damaged PTX emulated, generated
# kernels against the reference, damaged fat binaries) run on the
# instrumented core of scripts/sanitize.sh through an extension built with the
# same flags. A sanitizer report aborts the process: a failed test, or a fuzz
# finding with the input that caused it. The two pytest runs' whole output is
# kept in $BUILD/ptx-tests.log and $BUILD/cuda-runtime-tests.log.
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

# The PTX tests, minus those that only run ptxas/nvdisasm (SASS-guided mode,
# PTX against SASS), run every bundled config (the same emulator, many times
# over) or time long benches. They need no CUDA runtime: run them first.
t=$(now)
cd "$ROOT"
"$PY" -m pytest -q -p no:cacheprovider -m "not slow" \
  tests/test_ptx_errors.py tests/test_ptx_run_control.py tests/test_ptx_device_input.py \
  tests/test_ptx_kernels.py tests/test_ptx_more_kernels.py tests/test_ptx_barriers.py tests/test_ptx_half.py \
  tests/test_ptx_copies.py tests/test_ptx_stream.py tests/test_ptx_api.py tests/test_ptx_records.py \
  tests/test_ptx_device_state.py tests/test_ptx_device_sync.py tests/test_ptx_device_api_extras.py \
  tests/test_ptx_commands.py tests/test_ptx_addr32.py | tee "$BUILD/ptx-tests.log" | tail -n 3
step "PTX tests under ASan/UBSan" "$t"

# The CUDA runtime libraries, instrumented, where the launcher looks for them
# (beside the extension). Programs load them with libasan preloaded.
t=$(now)
cmake -S "$ROOT" -B "$BUILD" -DACCELSIM_BUILD_CUDART=ON \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
CUDART=$(cmake --build "$BUILD" --target help | grep -o 'accelsim_cudart[0-9]*' | sort -u || true)
mkdir -p "$PKG/cudart_lib"
if [ -n "$CUDART" ]; then
  cmake --build "$BUILD" -j "${JOBS:-2}" --target $CUDART
  find "$BUILD" -path "$BUILD/py" -prune -o -name 'libcudart.so.*' -type f -print \
    | xargs -r cp -t "$PKG/cudart_lib/"
fi
step "instrumented CUDA runtime" "$t"

# The CUDA runtime's tests: exports, refusals, run control, events, results,
# and the programs written in the suites' shapes (they skip with a reason where
# nvcc or the runtime headers are missing).
# nvcc's own tools crash with the sanitizer runtimes preloaded, so the tests
# compile through a wrapper that runs the real nvcc without them (found first:
# CUDA_HOME wins in accelsim's nvcc search). A run where the programs could
# not be built is a failure, not a clean result.
t=$(now)
NVCC_REAL=""
for c in "${CUDA_HOME:-}/bin/nvcc" /usr/local/cuda/bin/nvcc "$(command -v nvcc || true)"; do
  [ -x "$c" ] && { NVCC_REAL="$c"; break; }
done
[ -n "$NVCC_REAL" ] || { echo "[sanitize-ptx] no nvcc: the CUDA runtime tests cannot build their programs"; exit 1; }
mkdir -p "$BUILD/nvcc-unpreloaded/bin"
printf '#!/bin/sh\nexec env -u LD_PRELOAD "%s" "$@"\n' "$NVCC_REAL" > "$BUILD/nvcc-unpreloaded/bin/nvcc"
chmod +x "$BUILD/nvcc-unpreloaded/bin/nvcc"
# ASan's own SEGV handler is off here: the tests check that a program's own
# segfault in its host code is reported as SIGSEGV, which ASan would turn into
# SIGABRT. A segfault in the runtime still fails the test it happens in.
ASAN_OPTIONS="$ASAN_OPTIONS:handle_segv=0" \
CUDA_HOME="$BUILD/nvcc-unpreloaded" "$PY" -m pytest -q -rs -p no:cacheprovider -m "not slow" \
  tests/test_cuda_runtime.py tests/test_cuda_programs.py | tee "$BUILD/cuda-runtime-tests.log" | tail -n 3
if grep -q -E "SKIPPED.*(no nvcc|was not built)" "$BUILD/cuda-runtime-tests.log"; then
  echo "[sanitize-ptx] CUDA runtime tests skipped for want of nvcc or the runtime: see $BUILD/cuda-runtime-tests.log"
  exit 1
fi
step "CUDA runtime tests under ASan/UBSan" "$t"

t=$(now)
"$PY" -m accelsim.devtools.fuzz --targets ptx_parse,cuda_fatbin,ptx_run,ptx_emulator --slow --per-parser 1000000 \
  --seconds "$SECONDS_PER_TARGET" --seed "${SEED:-7}" --timeout 120 --memory-mb 0 ${JSON:+--json "$JSON"}
step "PTX and fat-binary fuzz under ASan/UBSan" "$t"
echo "[sanitize-ptx] clean"
