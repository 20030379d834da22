#!/usr/bin/env bash
# The Python package as a user installs it (issue 35): `pip install .` of the repository into a
# fresh virtual environment, then python/tests and the example against the INSTALLED package
# (run from outside the source tree, SPMVLAB_EXPECT_INSTALLED=1: a test fails if spmvlab comes
# from the source or build tree, if its sample matrices or schemas are not its own, or if
# importlib.metadata does not know it). Then `pip uninstall` must remove it.
#
# The environment is made with --system-site-packages so that NumPy and SciPy come from Debian
# (python3-numpy, python3-scipy) and nothing is downloaded: pip runs with --no-index, so a
# missing dependency fails here instead of reaching for the network. The wheel is CPU-only
# (the default); SPMVLAB_CUDA=1 in the environment builds the CUDA kernels instead.
#
#   scripts/python_wheel_check.sh            # interpreter: $SPMV_PYTHON or /usr/bin/python3
# The CMake build of the wheel is kept in ${SPMV_WHEEL_BUILD_DIR:-build-wheel} (incremental on
# the next run); the environment is temporary.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
py=${SPMV_PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=$(command -v python3)
fail() { echo "python_wheel_check: FAILED: $*" >&2; exit 1; }

for m in numpy scipy venv; do
  "$py" -c "import $m" 2>/dev/null ||
    fail "$py has no $m (Debian: apt install python3-numpy python3-scipy python3-venv)"
done

work=$(mktemp -d /tmp/spmvlab-wheel-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$py" -m venv --system-site-packages "$work/venv"
vpy=$work/venv/bin/python

export SPMVLAB_BUILD_DIR=${SPMV_WHEEL_BUILD_DIR:-$repo/build-wheel}
echo "python_wheel_check: pip install $repo into $work/venv (CMake build in $SPMVLAB_BUILD_DIR)"
start=$(date +%s)
if ! "$vpy" -m pip install --no-index --disable-pip-version-check -v "$repo" \
     >"$work/pip.log" 2>&1; then
  tail -n 60 "$work/pip.log" >&2
  fail "pip install . (the whole log was $work/pip.log)"
fi
echo "python_wheel_check: $(grep -o 'Successfully installed.*' "$work/pip.log")" \
     "in $(( $(date +%s) - start )) s"

cd "$work"  # nothing of the source tree on sys.path from here on
version=$("$vpy" -c "import spmvlab, importlib.metadata as m; print(m.version('spmvlab'))")
expected=$(sed -n 's/^project(spmvlab VERSION \([0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
[ "$version" = "$expected" ] ||
  fail "importlib.metadata says '$version', CMakeLists.txt '$expected'"
where=$("$vpy" -c "import spmvlab, os; print(os.path.dirname(spmvlab.__file__))")
case "$where" in "$work/venv/"*) ;; *) fail "spmvlab imported from $where, not the venv" ;; esac
echo "python_wheel_check: spmvlab $version from $where"

if ! SPMVLAB_EXPECT_INSTALLED=1 PYTHONDONTWRITEBYTECODE=1 "$vpy" -m unittest discover -v \
       -s "$repo/python/tests" -p "test_*.py" >"$work/tests.log" 2>&1; then
  cat "$work/tests.log" >&2
  fail "python/tests against the installed package"
fi
tail -n 4 "$work/tests.log"
grep -q "test_installed_package_stands_alone .* ok$" "$work/tests.log" ||
  { cat "$work/tests.log" >&2; fail "the installed-package test did not run"; }

MPLBACKEND=Agg "$vpy" "$repo/examples/python/formats_tour.py" >"$work/example.log" 2>&1 &&
  grep -q PASSED "$work/example.log" ||
  { cat "$work/example.log" >&2; fail "examples/python/formats_tour.py, installed package"; }

"$vpy" -m pip uninstall -y spmvlab >/dev/null
if "$vpy" -c "import spmvlab" 2>/dev/null; then
  fail "spmvlab still importable after pip uninstall"
fi
left=$(ls "$work"/venv/lib/python3*/site-packages | grep -i spmvlab || true)
[ -z "$left" ] || fail "pip uninstall left files: $left"
echo "python_wheel_check: PASSED (pip install ., tests and example against the installed" \
     "package, pip uninstall)"
