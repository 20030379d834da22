#!/usr/bin/env bash
# Session 24's device batch (issue 37; one H200): the nonzero-tiled CSR kernel with persistent
# warp strips (kernels/bench/tiled_bench.cu, tiled_strip_kernel), then the library kernel.
#   strip  tiled_bench on the default power law, the lengths 4-1000 law and onefull 200k (its
#          checks: alpha/beta, empty rows, one full row, strips of one chunk, bitwise repeats),
#          and Nsight Compute on the strip kernel (S = 4, DP);
# Usage (device machine, repository root with .deps): SPMV_COMMIT=<sha> RESULTS=DIR \
#   bash scripts/experiments/s24.sh STEP
set -uo pipefail
out=${RESULTS:-out-s24}
what=${1:-strip}
mkdir -p "$out"
S=build-device/cli/spmvlab
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,ecc.mode.current \
    --format=csv > "$out/gpu.csv"
echo "commit ${SPMV_COMMIT:-unknown} $(date -u +%FT%TZ)" > "$out/commit.txt"
if [ "$what" = strip ]; then
    source scripts/device_build.sh
    device_build "$out/logs" tiled_bench || exit 1
    B=build-device/kernels/bench/tiled_bench
    $B 1 500 > "$out/mask_default.txt" 2>&1; echo "rc=$?"
    $B 4 1000 > "$out/mask_minlen4.txt" 2>&1; echo "rc=$?"
    $B onefull > "$out/mask_onefull.txt" 2>&1; echo "rc=$?"
    timeout 120 ncu --section SpeedOfLight --section Occupancy --section LaunchStats \
        --section SchedulerStats --section MemoryWorkloadAnalysis --kernel-name-base demangled \
        -k "regex:tiled_mask_kernel|fixup_static" --launch-skip 20 --launch-count 2 \
        $B 1 500 > "$out/ncu_mask.txt" 2>&1; echo "ncu rc=$?"
    grep -E "check|MASK|WRONG" "$out"/mask_*.txt | grep -v " ok$" | head -20
    grep -vE "check" "$out"/mask_*.txt
fi
