#!/usr/bin/env bash
# Session 19 device batch on a 4 x H200 machine (issues 34 and 37), from the repository root with
# .deps carried:
#   scripts/experiments/s19.sh gpu    build; at once, one GPU each: GPU 0 the whole [gpu] suite
#                                     (every kernel now carries the warp recorder), GPU 1
#                                     scripts/experiments/warp_timeline.sh device (timelines,
#                                     [trace] tests, the A/B against a build without the recorder)
#   scripts/experiments/s19.sh warps  (one GPU) the timelines alone, after `gpu`
#   scripts/experiments/s19.sh dist   scripts/experiments/dist_model.sh on 1, 2 and 4 GPUs
# Outputs under $OUT. SPMV_COMMIT must be set (the copy has no .git).
set -uo pipefail
part=${1:?usage: s19.sh gpu|warps|dist}
export SPMV_COMMIT=${SPMV_COMMIT:?}
t0=$SECONDS
case $part in
gpu)
    source scripts/device_build.sh
    device_build "$OUT/logs" spmvlab test_gpu test_core || exit 1
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv > "$OUT/gpu.txt"
    gpus=$(nvidia-smi -L | wc -l)
    if [ "$gpus" -ge 2 ]; then  # the suite and the timelines at once, one GPU each
        (CUDA_VISIBLE_DEVICES=0 timeout 420 build-device/tests/test_gpu "[gpu]~[.]" \
            > "$OUT/test_gpu.txt" 2>&1; echo "test_gpu rc=$? $((SECONDS - t0)) s") &
        (CUDA_VISIBLE_DEVICES=1 timeout 480 scripts/experiments/warp_timeline.sh device \
            > "$OUT/warp_timeline.log" 2>&1; echo "warp_timeline rc=$? $((SECONDS - t0)) s") &
        wait
    else  # one GPU: the suite now, the timelines with `s19.sh warps`
        timeout 480 build-device/tests/test_gpu "[gpu]~[.]" > "$OUT/test_gpu.txt" 2>&1
        echo "test_gpu rc=$? $((SECONDS - t0)) s"
    fi
    tail -3 "$OUT/test_gpu.txt"; grep -B3 -A15 "FAILED" "$OUT/test_gpu.txt" | head -60
    grep -E "rc=|passed|failed" "$OUT/warp_timeline.log" 2>/dev/null | head -20
    ;;
warps)
    timeout 560 scripts/experiments/warp_timeline.sh device > "$OUT/warp_timeline.log" 2>&1
    echo "warp_timeline rc=$? $((SECONDS - t0)) s"
    grep -E "rc=|passed|failed" "$OUT/warp_timeline.log" | head -20
    ;;
dist)
    for P in 1 2 4; do
        PDE_SIZES=${PDE_SIZES:-250 150} REPEAT=${REPEAT:-100} timeout 170 \
            scripts/experiments/dist_model.sh build-device/cli/spmvlab "$OUT/dist/x$P" "$P" \
            > "$OUT/dist_x$P.log" 2>&1
        echo "dist x$P rc=$? $((SECONDS - t0)) s"
    done
    cat "$OUT"/dist/x*/summary.txt 2>/dev/null
    ;;
*) echo "unknown part $part" >&2; exit 2 ;;
esac
