#!/usr/bin/env bash
# The CUDA wheel on the GPU machine: its Python 3.12 (/opt/torch/.venv, NumPy 2, SciPy, pip 24,
# pybind11 from pip) builds it with `pip install --target` (not into that environment), then the
# Python tests run against the installed copy, the Gpu cases on the H200. --no-build-isolation: its
# cmake is the pip package cmake, whose module the isolated environment hides.
set -uo pipefail
src=$PWD
python3 --version
export PATH=/usr/local/cuda/bin:$PATH CMAKE_BUILD_PARALLEL_LEVEL=16 SPMVLAB_CUDA=1
export SPMVLAB_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90 -Dpybind11_DIR=$(python3 -c 'import pybind11; print(pybind11.get_cmake_dir())')"
t0=$SECONDS
ls -la /usr/bin/cmake /usr/local/bin/cmake /usr/bin/ninja 2>&1 | head -3
python3 -m pip install --no-index --no-deps -v --target /tmp/inst . > $OUT/wheel_isolated.log 2>&1; echo "pip (isolated) rc=$?"
grep -E "no working cmake|Successfully installed" $OUT/wheel_isolated.log | head -3
[ -d /tmp/inst/spmvlab ] || python3 -m pip install --no-index --no-deps --no-build-isolation -v --target /tmp/inst . > $OUT/wheel_build.log 2>&1
echo "pip install rc=$? $((SECONDS - t0)) s"; grep -E "Successfully|error|Error" $OUT/wheel_build.log | tail -5
ls /tmp/inst
export PYTHONPATH=/tmp/inst
cd /tmp && python3 -c "import spmvlab, spmvlab.gpu as g, importlib.metadata as m; print('spmvlab', m.version('spmvlab'), 'from', spmvlab.__file__); print('gpu available', g.is_available())"
cd /tmp && SPMVLAB_EXPECT_INSTALLED=1 timeout 300 python3 -m unittest discover -v -s $src/python/tests > $OUT/py_tests.log 2>&1; echo "py tests rc=$?"; tail -4 $OUT/py_tests.log
grep -E "skipped|FAIL|ERROR" $OUT/py_tests.log | head -20; grep -ci gpu $OUT/py_tests.log
