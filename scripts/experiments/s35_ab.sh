#!/usr/bin/env bash
# Session 35's A/B of the widest-first block order (issue 37; one H200): the working tree
# (sell / sell_i16's plain launch runs its blocks widest width class first, spmv/gpu/block_order.hpp)
# against 5a3cb1c (blockIdx order), built side by side (device_ab_build; the former
# kernels/src/sell.cu, kernels/include/spmv/gpu/sell.hpp, sell_i16.hpp and kernels/CMakeLists.txt
# in .bench/old_files). Tests of the new build first, then old / new alternating in two rounds
# on the large matrices (sigma auto, both precisions, pJDS and cuSPARSE SELL beside them), then
# once each on the shared collection's parts a and b (.mtx/a.tar.xz, .mtx/b.tar.xz) with sell,
# sell_i16 and cuSPARSE SELL.
#   SPMV_COMMIT=<sha>+s35 OUT=DIR bash scripts/experiments/s35_ab.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
mkdir -p "$OUT"
if [ "${BUILD:-1}" = 1 ]; then device_ab_build "$OUT" 5a3cb1c spmvlab test_gpu || exit 1; fi
NEW=build-device/cli/spmvlab
OLD=.bench/old/build-device/cli/spmvlab
timeout 200 build-device/tests/test_gpu "[permuted],[sell_i16],[spmv_dot],[block-order]" > "$OUT/test_gpu_sell.txt" 2>&1
echo "test_gpu [permuted],[sell_i16],[spmv_dot],[block-order] rc=$?"; tail -2 "$OUT/test_gpu_sell.txt"
M="gen:blocks5:block-rows=100000,blocks=8 gen:blocks5:block-rows=60000,blocks=8,seed=7 gen:pde:size=100 gen:pde:size=150 gen:powerlaw:rows=1000000 gen:powerlaw:rows=1000000,min-len=4,max-len=1000"
for r in 1 2; do
    for b in old new; do
        S=$NEW; [ $b = old ] && S=$OLD
        t0=$SECONDS
        # shellcheck disable=SC2086  # M is a list of words
        timeout 200 $S bench --gpu --precision both --sigma auto --formats sell,sell_i16,sell_split,pjds,cusparse_sell \
            --min-time 100 --min-reps 50 $M --json-out "$OUT/${b}_r$r.json" > "$OUT/${b}_r$r.txt" 2> "$OUT/${b}_r$r.err"
        echo "$b round $r rc=$? $((SECONDS - t0)) s"
    done
done
for p in a b; do
    [ -d ".mtx/$p" ] || tar xJf ".mtx/$p.tar.xz" -C .mtx
    for b in old new; do
        S=$NEW; [ $b = old ] && S=$OLD
        t0=$SECONDS
        timeout 150 $S bench --gpu --precision both --sigma auto --formats sell,sell_i16,cusparse_sell \
            --min-time 10 --min-reps 20 ".mtx/$p" --json-out "$OUT/${b}_$p.json" > "$OUT/${b}_$p.txt" 2> "$OUT/${b}_$p.err"
        echo "$b part $p rc=$? $((SECONDS - t0)) s"
    done
done
cd "$OUT" && tar cf ab.tar ./*.txt ./*.err ./*.json gpu.csv logs logs_old && rm -rf ./*.txt ./*.err ./*.json logs logs_old
