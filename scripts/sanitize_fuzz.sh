#!/usr/bin/env bash
# The parser fuzzers against an ASan/UBSan build of the Python extension:
# reuses the instrumented core library of scripts/sanitize.sh, compiles the
# pybind11 bindings with the same flags, and runs the fuzz targets that reach
# C++ (trace reader, kernelslist, dict configs, simulations) with libasan
# preloaded. A sanitizer report kills the worker: it is then a finding with
# the input that caused it.
#
#   PYTHON=/usr/bin/python3 scripts/sanitize_fuzz.sh [SECONDS_PER_TARGET] [BUILD_DIR]
# PYTHON must be an interpreter without an editable accelsim install (its
# import hook would win over PYTHONPATH and load the uninstrumented module).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECONDS_PER_TARGET="${1:-60}"
BUILD="${2:-$ROOT/build/sanitize}"
PY="${PYTHON:-python}"
FLAGS="-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
[ -f "$BUILD/libaccelsim_core.a" ] || { echo "run scripts/sanitize.sh first"; exit 2; }

PKG="$BUILD/py/accelsim"
rm -rf "$BUILD/py" && mkdir -p "$BUILD/py"
cp -r "$ROOT/python/accelsim" "$PKG"
ln -s "$ROOT/configs" "$PKG/configs"
SUFFIX="$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
EXT="$BUILD/_core$SUFFIX"
DEFS=$(grep -o -- '-DACCELSIM_HAVE_[A-Z]*=1' "$BUILD/build.ninja" | sort -u | tr '\n' ' ' || true)
LIBS=""
grep -q "ACCELSIM_HAVE_ZLIB" "$BUILD/build.ninja" && LIBS="$LIBS -lz"
grep -q "ACCELSIM_HAVE_LZMA" "$BUILD/build.ninja" && LIBS="$LIBS -llzma"
stale=$(find "$ROOT/bindings" "$BUILD/libaccelsim_core.a" -newer "$EXT" 2>/dev/null | head -n 1 || true)
if [ ! -f "$EXT" ] || [ -n "$stale" ]; then
  t=$(date +%s)
  g++ -std=c++20 -shared -fPIC $FLAGS $DEFS $("$PY" -m pybind11 --includes) -I "$ROOT/cpp" \
    "$ROOT"/bindings/*.cpp -Wl,--whole-archive "$BUILD/libaccelsim_core.a" -Wl,--no-whole-archive $LIBS -o "$EXT"
  echo "[sanitize-fuzz] extension built in $(( $(date +%s) - t )) s"
fi
cp "$EXT" "$PKG/"

export LD_PRELOAD="$(g++ -print-file-name=libasan.so) $(g++ -print-file-name=libubsan.so)"
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export PYTHONPATH="$BUILD/py"
"$PY" -c "import accelsim._core as c; assert '$BUILD' in c.__file__, 'not the ASan build: ' + c.__file__"
"$PY" -m accelsim.devtools.fuzz --targets "${TARGETS:-trace_line,trace_header,kernelslist,dict_config,trace_sim,kernelslist_sim}" \
  --per-parser 1000000 --seconds "$SECONDS_PER_TARGET" --seed "${SEED:-7}" --timeout 60 --memory-mb 0 \
  ${JSON:+--json "$JSON"}
