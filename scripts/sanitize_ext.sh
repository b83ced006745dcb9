# Sourced by the sanitizer scripts (needs ROOT, BUILD, PY, FLAGS): builds the
# pybind11 extension with the sanitizer flags against the instrumented core of
# scripts/sanitize.sh (only when the bindings or the core changed), lays out a
# copy of the package around it in $BUILD/py, and exports what running Python
# on it needs: libasan/libubsan preloaded, PYTHONPATH, and a sitecustomize that
# removes an editable install's import hook (it would load the uninstrumented
# extension in this process and in every child process).
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
  # One object per bindings file, JOBS at a time (through ccache when there is one),
  # then one link against the instrumented core.
  OBJ="$BUILD/pyext" && rm -rf "$OBJ" && mkdir -p "$OBJ"
  CXX_EXT="$(command -v ccache >/dev/null && echo "ccache g++" || echo g++)"
  CXXFLAGS_EXT="-std=c++20 -fPIC $FLAGS $DEFS $("$PY" -m pybind11 --includes) -I $ROOT/cpp"
  export CXX_EXT CXXFLAGS_EXT OBJ
  printf '%s\n' "$ROOT"/bindings/*.cpp | xargs -P "${JOBS:-2}" -I{} \
    sh -c '$CXX_EXT $CXXFLAGS_EXT -c "$1" -o "$OBJ/$(basename "$1" .cpp).o"' _ {}
  g++ -shared -fPIC $FLAGS "$OBJ"/*.o -Wl,--whole-archive "$BUILD/libaccelsim_core.a" \
    -Wl,--no-whole-archive $LIBS -o "$EXT"
  echo "[sanitize] extension built in $(( $(date +%s) - t )) s"
fi
cp "$EXT" "$PKG/"
cat > "$BUILD/py/sitecustomize.py" <<'PYEOF'
import sys
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in (getattr(f, "__module__", "") or "")]
PYEOF

# ASan intercepts dlopen, so a library's own $ORIGIN run path no longer finds
# what it loads beside itself: NVRTC (Module.from_cuda) fails to open its
# libnvrtc-builtins. Put the NVRTC wheel's folder on the search path.
NVRTC_DIR="$("$PY" - <<'PYEOF' || true
import glob, os, site
for base in site.getsitepackages() + [site.getusersitepackages()]:
    found = sorted(glob.glob(os.path.join(base, "nvidia", "*", "lib", "libnvrtc.so*")))
    if found:
        print(os.path.dirname(found[0]))
        break
PYEOF
)"
if [ -n "$NVRTC_DIR" ]; then
  export LD_LIBRARY_PATH="$NVRTC_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export LD_PRELOAD="$(g++ -print-file-name=libasan.so) $(g++ -print-file-name=libubsan.so)"
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export PYTHONPATH="$BUILD/py"
