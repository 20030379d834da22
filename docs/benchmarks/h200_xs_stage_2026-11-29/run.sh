#!/usr/bin/env bash
# Session 28 on one H200 (issue 37): the "_xs" kernels' x staging in 16-byte vectors, 4 in flight
# per thread and step (kernels/src/permuted.cuh, detail::stage_x), against the loop of one entry
# per thread per step before it. From the repository root on the device:
#   OUT=DIR SPMV_COMMIT=SHA bash docs/benchmarks/h200_xs_stage_2026-11-29/run.sh 1
#       build; the [gpu] suite; the same tree with the former permuted.cuh (carried as
#       .bench/old_permuted.cuh: git show <before>:kernels/src/permuted.cuh) built beside it;
#       ell_xs and sell_xs on the collection's halves a and b, new and old in alternation
#   OUT=DIR SPMV_COMMIT=SHA bash docs/benchmarks/h200_xs_stage_2026-11-29/run.sh a   (then b)
#       scripts/experiments/card_records.sh with every variant (the model's fit and
#       validation, and the comparison with cuSPARSE in the same run)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
: "${OUT:?}" "${SPMV_COMMIT:?}"
step=${1:?}
for h in a b; do
    [ -d .mtx/$h ] || [ ! -f .mtx/$h.tar.xz ] || tar xJf .mtx/$h.tar.xz -C .mtx
done
case $step in
    1)
        t0=$SECONDS
        source scripts/device_build.sh
        device_build "$OUT/logs" spmvlab test_gpu || exit 1
        nvidia-smi --query-gpu=index,name,driver_version,memory.total,ecc.mode.current,clocks.max.sm \
            --format=csv > "$OUT/gpu.csv" 2>&1
        timeout 240 build-device/tests/test_gpu > "$OUT/test_gpu.txt" 2>&1
        echo "test_gpu rc=$? $((SECONDS - t0)) s"; tail -n 3 "$OUT/test_gpu.txt"
        old=/tmp/xs_old
        rm -rf $old && mkdir -p $old
        tar cf - --exclude=./build-device --exclude=./.mtx --exclude=./.git . | tar xf - -C $old
        cp .bench/old_permuted.cuh $old/kernels/src/permuted.cuh
        (cd $old && SPMV_COMMIT="$SPMV_COMMIT+old-stage_x" device_build "$OUT/logs_old" spmvlab) || exit 1
        echo "old build done $((SECONDS - t0)) s"
        mkdir -p "$OUT/ab"
        for h in a b; do
            for k in new old; do
                s=build-device/cli/spmvlab
                [ $k = old ] && s=$old/build-device/cli/spmvlab
                SPMV_COMMIT="$SPMV_COMMIT$([ $k = old ] && echo +old-stage_x)" "$s" bench --gpu \
                    --precision both --formats ell_xs,sell_xs --min-time 10 --min-reps 20 .mtx/$h \
                    --json-out "$OUT/ab/${k}_$h.json" > "$OUT/ab/${k}_$h.txt" 2> "$OUT/ab/${k}_$h.err"
                echo "ab $k $h rc=$? $((SECONDS - t0)) s"
            done
        done ;;
    a|b) bash scripts/experiments/card_records.sh "$step" ;;
esac
