#!/usr/bin/env bash
# Session 34's device batch (issue 37; one H200): csr_tiled's launch variants, chosen at run time
# by SPMV_TILED_EXP (a bit mask read by the experiment build of kernels/src/csr_tiled.cu, not
# committed: scripts/experiments/s34/tiled_exp.patch on e706318):
#   1  the tile kernel's preferred carveout set to the largest L1 (cudaSharedmemCarveoutMaxL1)
#   2  the fix-up without shared memory: one warp per long cut row instead of one block of 256,
#      so that it needs the same shared-memory configuration as the tile kernel (0 bytes)
#   4  x gathered with the L2 evict_last hint (ld_x) in streaming launches
# Masks (MASKS, default "0 2 1 4 6") alternate in each round (ROUNDS, default 1), cuSPARSE CSR
# ALG1 beside every run, on the generated large matrices (LARGE); SMALL=1 adds one run of masks
# 0 and 2 on the collection's matrices of .mtx/s32 (the small matrices, where the fix-up's
# second launch is the largest share). TESTS=1 first runs test_gpu "[csr_tiled]" under masks 0,
# 2 and 6 and compute-sanitizer memcheck under mask 2.
#   SPMV_COMMIT=e706318+s34 OUT=DIR bash scripts/experiments/s34.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
mkdir -p "$OUT"
if [ ! -x build-device/cli/spmvlab ] || [ "${BUILD:-1}" = 1 ]; then
    device_build "$OUT/logs" spmvlab test_gpu || exit 1
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.memory --format=csv > "$OUT/gpu.csv"
if [ "${TESTS:-1}" = 1 ]; then
    for m in 0 2 6; do
        t0=$SECONDS
        SPMV_TILED_EXP=$m timeout 120 build-device/tests/test_gpu "[csr_tiled]" > "$OUT/test_gpu_$m.txt" 2>&1
        echo "test_gpu [csr_tiled] mask $m rc=$? $((SECONDS - t0)) s"; tail -2 "$OUT/test_gpu_$m.txt"
    done
    t0=$SECONDS
    SPMV_TILED_EXP=2 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 \
        build-device/tests/test_gpu "[csr_tiled]" > "$OUT/memcheck.txt" 2>&1
    echo "memcheck mask 2 rc=$? $((SECONDS - t0)) s"; tail -2 "$OUT/memcheck.txt"
fi
LARGE=${LARGE:-gen:powerlaw:rows=1000000,min-len=4,max-len=1000 gen:pde:size=100 gen:powerlaw:rows=1000000 gen:onefull:n=200000}
bench() {  # MASK NAME ARGS...
    local m=$1 name=$2
    shift 2
    local t0=$SECONDS
    SPMV_TILED_EXP=$m timeout 200 build-device/cli/spmvlab bench --gpu --precision both \
        --formats csr_tiled,cusparse_csr_alg1 "$@" --json-out "$OUT/m${m}_$name.json" \
        > "$OUT/m${m}_$name.txt" 2> "$OUT/m${m}_$name.err"
    echo "mask $m $name rc=$? $((SECONDS - t0)) s"
}
for r in ${ROUNDS:-1}; do
    for m in ${MASKS:-0 2 1 4 6}; do
        # shellcheck disable=SC2086  # LARGE is a list of words
        bench "$m" "large$r" --min-time 100 --min-reps 50 $LARGE
    done
done
if [ "${SMALL:-0}" = 1 ]; then
    [ -d .mtx/s32 ] || tar xJf .mtx/s32.tar.xz -C .mtx
    for m in 0 2; do bench "$m" small --min-time 10 --min-reps 20 .mtx/s32; done
fi
