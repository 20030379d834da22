#!/usr/bin/env bash
# Session 35's block-order batch (issue 37, blocks5's roof; one H200). Why: on blocks5 in double
# sell_i16 (17 % fewer bytes than pJDS) keeps only 75 % of its warps active (Nsight Compute,
# docs/benchmarks/h200_roof_2026-11-30); its grid is 1.85 resident waves of blocks whose widths
# (5-40 slots) are mixed by the sort windows, so the last wave ends on wide blocks, where pJDS's
# global sort runs the widest rows first. The experiment build (scripts/experiments/s35/order.patch)
# gives the plain SELL launch a block order, widest block first, used with SPMV_SELL_ORDER=desc.
# Alternating off / desc in two rounds, sigma auto and 16384, pJDS and cuSPARSE SELL beside them.
#   SPMV_COMMIT=<sha>+s35 OUT=DIR bash scripts/experiments/s35_order.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
mkdir -p "$OUT"
[ "${BUILD:-1}" = 0 ] || device_build "$OUT/logs" spmvlab test_gpu || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.memory --format=csv > "$OUT/gpu.csv"
for o in off desc; do
    SPMV_SELL_ORDER=$o timeout 150 build-device/tests/test_gpu "[permuted],[sell_i16],[spmv_dot]" > "$OUT/test_gpu_$o.txt" 2>&1
    echo "test_gpu [permuted],[sell_i16],[spmv_dot] order $o rc=$?"; tail -2 "$OUT/test_gpu_$o.txt"
done
for o in off desc; do  # the product against the host's CSR on matrices launched with blocks of 128
    SPMV_SELL_ORDER=$o timeout 150 build-device/cli/spmvlab verify --gpu --formats sell --sigma auto \
        gen:blocks5:block-rows=100000,blocks=8 gen:powerlaw:rows=200000 gen:pde:size=60 > "$OUT/verify_$o.txt" 2>&1
    echo "verify sell order $o rc=$?"; tail -2 "$OUT/verify_$o.txt"
done
M="gen:blocks5:block-rows=100000,blocks=8 gen:blocks5:block-rows=60000,blocks=8,seed=7 gen:pde:size=100 gen:pde:size=150 gen:powerlaw:rows=1000000"
for r in ${ROUNDS:-1 2}; do
    for s in auto 16384; do
        for o in off desc; do
            t0=$SECONDS
            # shellcheck disable=SC2086  # M is a list of words
            SPMV_SELL_ORDER=$o timeout 200 build-device/cli/spmvlab bench --gpu --precision ${PREC:-dp} --sigma $s \
                --formats sell,sell_i16,pjds,cusparse_sell --min-time 100 --min-reps 50 $M \
                --json-out "$OUT/s${s}_${o}_r$r.json" > "$OUT/s${s}_${o}_r$r.txt" 2> "$OUT/s${s}_${o}_r$r.err"
            echo "sigma $s order $o round $r rc=$? $((SECONDS - t0)) s"
        done
    done
done
cd "$OUT" && tar cf order.tar ./*.txt ./*.err ./*.json gpu.csv logs && rm -rf ./*.txt ./*.err ./*.json logs
