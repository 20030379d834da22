#!/usr/bin/env bash
# Runs on the device machine (the `run` tool) from the repository root, with build-gpu2/devbin
# carried: the [permuted] and [variants] GPU tests, then permuted_bench (double precision).
# Logs go to $OUT (or ./out-device when OUT is unset). Binaries are built here (x86-64,
# sm_90): cmake --build build-gpu2 --target test_gpu, then the nvcc line in permuted_bench.cu.
set -uo pipefail
out=${OUT:-out-device}
mkdir -p "$out"
bin=build-gpu2/devbin
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$d" ] && export LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}"
done
if ldd "$bin/test_gpu" | grep -q "not found"; then  # e.g. cuSPARSE only in the Python wheels
    lib=$(find / -name 'libcusparse.so.12' -not -path '/proc/*' 2>/dev/null | head -1)
    [ -n "$lib" ] && export LD_LIBRARY_PATH="$(dirname "$lib"):$LD_LIBRARY_PATH"
    jit=$(find / -name 'libnvJitLink.so.13' -not -path '/proc/*' 2>/dev/null | head -1)
    [ -n "$jit" ] && export LD_LIBRARY_PATH="$(dirname "$jit"):$LD_LIBRARY_PATH"
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
ldd "$bin/test_gpu" | grep -E "cusparse|nvJitLink|not found"
what=${1:-all}
if [ "$what" = all ] || [ "$what" = tests ]; then
    timeout 240 "$bin/test_gpu" "[permuted]" 2>&1 | tee "$out/test_permuted.log" | tail -25
    timeout 240 "$bin/test_gpu" "[variants]" 2>&1 | tee "$out/test_variants.log" | tail -25
fi
if [ "$what" = all ] || [ "$what" = bench ]; then
    timeout 300 "$bin/permuted_bench" all dp 2>&1 | tee "$out/bench_dp.log"
fi
if command -v cuobjdump > /dev/null; then  # SASS of the two kernels that matter most
    cuobjdump -sass "$bin/test_gpu" 2>/dev/null > "$out/all.sass"
    one() { awk -v pat="$1" '/Function : /{on = ($0 ~ pat)} on' "$out/all.sass"; }
    one 'sell_spmv_kernelILi32EdE' > "$out/sell32_double.sass"
    one 'split_spmv_kernelILi8ENS1_15SellSplitLayoutIdEEdE' > "$out/split_sell_double.sass"
    grep -c "LDG" "$out/sell32_double.sass" "$out/split_sell_double.sass"
    rm -f "$out/all.sass"
fi
