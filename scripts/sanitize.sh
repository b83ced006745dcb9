#!/usr/bin/env bash
# ASan + UBSan build of the C++ core and its behaviour tests, then a short
# end-to-end simulation under the same instrumentation. Kept small enough for
# CI: -O1, minimal debug info, only the core library + tests + one driver (no
# pybind11 extension). Prints the time of each step; exits non-zero on any
# sanitizer report or test failure.
#
#   scripts/sanitize.sh [BUILD_DIR]        (default build/sanitize)
#   JOBS=2 MAX_CYCLES=200000 TRACE=path/to/kernelslist.g scripts/sanitize.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-$ROOT/build/sanitize}"
JOBS="${JOBS:-2}"
PY="${PYTHON:-python}"
FLAGS="-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

now() { date +%s.%N; }
step() { printf '[sanitize] %-28s %6.1f s\n' "$1" "$(echo "$(now) - $2" | bc)"; }

t=$(now)
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Sanitize \
  -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DACCELSIM_BUILD_TESTS=ON >/dev/null
step configure "$t"

t=$(now)
cmake --build "$BUILD" -j "$JOBS" --target accelsim_cpp_tests
step "build core + tests" "$t"

t=$(now)
"$BUILD/accelsim_cpp_tests" | tail -n 3
step "C++ tests under ASan/UBSan" "$t"

t=$(now)
LIBS=""
grep -q "ACCELSIM_HAVE_ZLIB" "$BUILD/build.ninja" && LIBS="$LIBS -lz"
grep -q "ACCELSIM_HAVE_LZMA" "$BUILD/build.ninja" && LIBS="$LIBS -llzma"
DEFS=$(grep -o -- '-DACCELSIM_HAVE_[A-Z]*=1' "$BUILD/build.ninja" | sort -u | tr '\n' ' ' || true)
g++ -std=c++20 $FLAGS $DEFS -I "$ROOT/cpp" "$ROOT/scripts/sanitize_e2e.cpp" \
  "$BUILD/libaccelsim_core.a" $LIBS -fsanitize=address,undefined -o "$BUILD/sanitize_e2e"
step "build e2e driver" "$t"

# The config as the core sees it, dumped by the Python loader (source tree).
CFG="$BUILD/qv100.cfg"
"$PY" - "$CFG" <<'PYEOF'
import sys
import accelsim
values = accelsim.load_config("QV100").core_dict()
with open(sys.argv[1], "w") as out:
    for key, value in values.items():
        if key == "exec_units":
            for u in value:
                out.write(f"unit {u['name']} {u['units_per_sm']} {u['latency']} {u['initiation']} "
                          f"{u.get('lanes', 32)} {','.join(u['classes'])}\n")
        elif key == "opcode_units":
            for op, unit in value.items():
                out.write(f"opcode {op} {unit}\n")
        elif key == "shmem_carveouts":
            if value:
                out.write("carveouts " + ",".join(str(v) for v in value) + "\n")
        else:
            out.write(f"param {key} {int(value) if isinstance(value, bool) else value}\n")
PYEOF

TRACE="${TRACE:-$ROOT/../shared/data/traces/bfs_rodinia31_sm70/kernelslist.g}"
if [ ! -f "$TRACE" ]; then  # no ../shared: simulate a generated example instead
  TRACE="$BUILD/example/kernelslist.g"
  "$PY" -c "
import sys; from accelsim.tracegen import write_example
write_example(sys.argv[1])" "$BUILD/example"
fi
t=$(now)
"$BUILD/sanitize_e2e" "$CFG" "$ROOT/configs/isa" "$TRACE" "${MAX_CYCLES:-300000}" | tail -n 4
step "e2e simulation under ASan" "$t"

# Hostile addresses: an LDG at the top of the 64-bit range must
# end in a clean error or a finished run, never a sanitizer report.
HOSTILE="$BUILD/hostile"
"$PY" -m accelsim.devtools.hostile "$HOSTILE"
failed=0
for list in "$HOSTILE"/*/kernelslist.g; do
  t=$(now)
  rc=0
  "$BUILD/sanitize_e2e" "$CFG" "$ROOT/configs/isa" "$list" 2000000 >/dev/null 2>"$BUILD/hostile.err" || rc=$?
  name=$(basename "$(dirname "$list")")
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
    grep -m1 -E "ERROR: AddressSanitizer|runtime error" "$BUILD/hostile.err" || tail -n 3 "$BUILD/hostile.err"
    grep -m3 -E "^    #[0-2] " "$BUILD/hostile.err" || true
    failed=$((failed + 1))
  fi
  step "hostile $name rc=$rc" "$t"
done
if [ "$failed" -ne 0 ]; then echo "[sanitize] FAILED: $failed hostile workload(s)"; exit 1; fi
echo "[sanitize] clean"
