#!/usr/bin/env bash
# Runs on the device machine (the `run` tool, carrying .deps) from the repository root: builds
# spmv_kernels, the GPU tests, spmvlab and gather_bench (sm_90, no GUI); `tests` runs the
# every-variant test and the slice-kernel tests, `bench` gather_bench on the two power laws of
# issue 3, `sanitizers` compute-sanitizer memcheck and racecheck on the slice-kernel tests
# (racecheck on [permuted] alone took ~5 minutes on an H100). Logs go to $OUT (or ./out-device).
set -uo pipefail
out=${OUT:-out-device}
mkdir -p "$out"
build=build-device
prefix="$PWD/.deps/catch2/usr;$PWD/.deps/cli11/usr;$PWD/.deps/json/usr"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMV_BUILD_GUI=OFF \
    -DSPMV_BUILD_TUTORIALS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 "-DCMAKE_PREFIX_PATH=$prefix" \
    > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build "$build" -j"$(nproc)" --target test_gpu spmvlab > "$out/build.log" 2>&1 ||
    { grep -B2 -A12 "error" "$out/build.log" | head -80; exit 1; }
nvcc -O3 -std=c++20 -arch=sm_90 -Ilib/include -Ikernels/include -I$build/lib/generated \
    kernels/bench/gather_bench.cu $build/kernels/libspmv_kernels.a $build/lib/libspmv_core.a \
    -lcusparse -o $build/gather_bench > "$out/bench_build.log" 2>&1 || { tail -30 "$out/bench_build.log"; exit 1; }
what=${1:-all}
if [ "$what" = all ] || [ "$what" = tests ]; then
    timeout 300 $build/tests/test_gpu "[variants],[permuted],[sell_i16],[ell]" 2>&1 |
        tee "$out/test_variants.log" | tail -5
fi
if [ "$what" = all ] || [ "$what" = bench ]; then
    $build/gather_bench 1 500 2>&1 | tee "$out/gather_default.txt"
    $build/gather_bench 4 1000 2>&1 | tee "$out/gather_minlen4.txt"
fi
if [ "$what" = all ] || [ "$what" = sanitizers ]; then
    timeout 240 compute-sanitizer --tool memcheck --error-exitcode 42 $build/tests/test_gpu \
        "[permuted],[stream_loads]" > "$out/memcheck.log" 2>&1; echo "memcheck rc=$?"
    tail -3 "$out/memcheck.log"
    timeout 420 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 42 \
        $build/tests/test_gpu "[permuted]" > "$out/racecheck.log" 2>&1; echo "racecheck rc=$?"
    tail -3 "$out/racecheck.log"
fi
