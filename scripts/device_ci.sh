#!/usr/bin/env bash
# On the GPU machine: configure and build everything but the GUI (Qt is not there), run the whole
# CTest suite (CPU and [gpu] tests, tutorials, CLI), then compute-sanitizer memcheck and racecheck
# on the GPU tests (scripts/device_check.sh holds the filters). Logs go to $OUT or build-device/.
#   scripts/device_ci.sh [build-dir]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-device}
logs=${OUT:-$build/logs}
mkdir -p "$logs"
prefix="$PWD/.deps/deps/usr;$PWD/.deps/catch2/usr;$PWD/.deps/cli11/usr;$PWD/.deps/json/usr"
nvidia-smi --query-gpu=name,driver_version,memory.total,ecc.mode.current --format=csv,noheader
t0=$SECONDS
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMV_BUILD_GUI=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90 "-DCMAKE_PREFIX_PATH=$prefix" >"$logs/configure.log" 2>&1 ||
    { tail -30 "$logs/configure.log"; exit 1; }
cmake --build "$build" -j"$(nproc)" >"$logs/build.log" 2>&1 ||
    { grep -E "error|FAILED" "$logs/build.log" | head -40; exit 1; }
echo "build: $((SECONDS - t0)) s"
(cd "$build" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    ctest -j8 --timeout 300 --output-on-failure >"$logs/ctest.log" 2>&1)
rc=$?
grep -E "tests passed|tests failed|\*\*\*Failed|\(Failed\)|Skipped|Timeout" "$logs/ctest.log" | head -40
echo "ctest rc=$rc ($((SECONDS - t0)) s)"
if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then
    bin="$build/tests/test_gpu"
    timeout 300 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 42 \
        "$bin" "[gpu]~[bench]~[.]~[oom]~[solvers]" >"$logs/memcheck.log" 2>&1
    echo "memcheck rc=$?: $(grep -E 'ERROR SUMMARY|LEAK SUMMARY' "$logs/memcheck.log" | tr '\n' ' ')"
    timeout 200 compute-sanitizer --tool racecheck --error-exitcode 42 \
        "$bin" "[csr],[coo],[ell],[ellr],[ellg],[hyb],[permutation],[permuted],[xs]" >"$logs/racecheck.log" 2>&1
    echo "racecheck rc=$?: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$logs/racecheck.log" | tr '\n' ' ')"
fi
echo "total $((SECONDS - t0)) s"
exit $rc
