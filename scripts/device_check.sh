#!/usr/bin/env bash
# GPU check, run on the machine with the GPU (e.g. through the device tool, carrying .deps):
# configure (no GUI, sm_90), build the GPU test binary, run every [gpu] test, print a cold
# timing table of every kernel variant, then run compute-sanitizer memcheck (all GPU tests but
# the timing ones and the deliberate out-of-memory test, whose failing cudaMalloc the sanitizer
# reports as an API error) and racecheck (the per-format kernel tests) on the same binary.
#
#   scripts/device_check.sh [build-dir]          logs go to $OUT (device tool) or <build-dir>/
#
# Catch2 (and CLI11 / nlohmann-json, which the configure step needs for cli/) come from Debian
# packages unpacked under .deps/ on the development machine (.deps is git-ignored):
#   mkdir -p .deps && cd .deps && apt-get download catch2 libcli11-dev nlohmann-json3-dev &&
#   dpkg -x catch2_*.deb catch2 && dpkg -x libcli11-dev_*.deb cli11 &&
#   dpkg -x nlohmann-json3-dev_*.deb json && rm *.deb
# and, for the metis partition of the distributed batches (scripts/device_build.sh):
#   apt-get download libmetis5 libmetis-dev && for f in *metis*.deb; do dpkg -x $f metis; done
# Environment: MEMCHECK_FILTER, RACECHECK_FILTER (Catch2 test specs), SKIP_SANITIZERS=1,
# SKIP_BENCH=1.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-device}
logs=${OUT:-$build/device_check}
mkdir -p "$logs"
prefix="$PWD/.deps/catch2/usr;$PWD/.deps/cli11/usr;$PWD/.deps/json/usr"
memcheck_filter=${MEMCHECK_FILTER:-~[bench]~[.]~[oom]}
racecheck_filter=${RACECHECK_FILTER:-[csr],[coo],[ell],[ellr],[ellg],[hyb],[permutation]}
declare -A status

step() {  # step <name> <timeout-seconds> <command...>: runs, logs to $logs/<name>.log
    local name=$1 limit=$2
    shift 2
    echo "=== $name: $*"
    local t0=$SECONDS
    timeout "$limit" "$@" >"$logs/$name.log" 2>&1
    local rc=$?
    status[$name]="rc=$rc $((SECONDS - t0))s"
    tail -n "${TAIL_LINES:-25}" "$logs/$name.log"
    return $rc
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
nvcc --version | tail -n 1
command -v compute-sanitizer >/dev/null && compute-sanitizer --version | head -n 1

step configure 120 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DSPMV_BUILD_GUI=OFF -DSPMV_BUILD_TUTORIALS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 \
    "-DCMAKE_PREFIX_PATH=$prefix" ||
    { echo "configure failed"; exit 1; }
TAIL_LINES=15 step build 300 cmake --build "$build" -j"$(nproc)" --target test_gpu ||
    { echo "build failed"; exit 1; }
bin="$build/tests/test_gpu"

step tests 180 "$bin" "[gpu]~[.]" --durations yes
if [ "${SKIP_BENCH:-0}" != 1 ]; then
    TAIL_LINES=70 step bench 150 "$bin" "[bench-table],[csr-vector-sweep]"
fi
if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then
    step memcheck 300 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 42 \
        "$bin" "$memcheck_filter"
    step racecheck 180 compute-sanitizer --tool racecheck --racecheck-report all \
        --error-exitcode 42 "$bin" "$racecheck_filter"
fi

echo "=== summary"
rc=0
for name in configure build tests bench memcheck racecheck; do
    if [ -n "${status[$name]:-}" ]; then
        echo "$name: ${status[$name]}"
        case "${status[$name]}" in rc=0*) ;; *) rc=1 ;; esac
    fi
done
exit $rc
