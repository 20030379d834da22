#!/usr/bin/env bash
# Device batch for issue 21's GPU parts at the commit that added them: the [gpu] suite (with
# MPIR-CG's outer PCG and pJDS footnote-2 padding), compute-sanitizer memcheck on those new
# tests, bench --basis both (the sorted formats with y left sorted, Kreutzer's timing) and
# Cevahir's MPIR-CG as written against CG and the refinement on pde100 / pde150.
#   SPMV_COMMIT=<commit> bash docs/benchmarks/h100_2026-11-26/run_issue21.sh   (writes $OUT/i21/)
set -uo pipefail
out=${OUT:?}/i21; mkdir -p "$out"
source scripts/device_build.sh
device_build "$out/logs" spmvlab test_gpu || exit 1
S=build-device/cli/spmvlab
t0=$SECONDS
build-device/tests/test_gpu > "$out/test_gpu.txt" 2>&1; echo "test_gpu rc=$? $((SECONDS - t0)) s"; tail -2 "$out/test_gpu.txt"
/usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 build-device/tests/test_gpu \
    "*MPIR-CG*,*pjds_pad*" > "$out/memcheck.txt" 2>&1; echo "memcheck rc=$? $((SECONDS - t0)) s"; tail -3 "$out/memcheck.txt"
"$S" bench --gpu --basis both --precision both --sigma auto \
    --formats ellr,pjds,pjds_split,pellr,pellr_split,jds_csr,bijad,sell,sell_i16 \
    gen:pde:size=100 gen:blocks5:block-rows=100000,blocks=8 gen:powerlaw:rows=1000000 \
    --json-out "$out/basis.json" > "$out/basis.txt" 2>&1; echo "basis rc=$? $((SECONDS - t0)) s"
for m in gen:pde:size=100 gen:pde:size=150; do
    n=${m##*=}
    "$S" solve "$m" --gpu --variant sell_i16 --format sell --sigma 1 --method cg --repeat 3 --json > "$out/cg_$n.json" 2> "$out/cg_$n.err"
    echo "cg $m rc=$?"
    "$S" solve "$m" --gpu --variant sell_i16 --format sell --sigma 1 --method mpir-cg --repeat 3 --json > "$out/mpir_rich_$n.json" 2> "$out/mpir_rich_$n.err"
    echo "mpir richardson $m rc=$?"
    for k in 100 150 200; do
        "$S" solve "$m" --gpu --variant sell_i16 --format sell --sigma 1 --method mpir-cg --outer pcg --inner-maxit $k --repeat 3 --json \
            > "$out/mpir_pcg${k}_$n.json" 2> "$out/mpir_pcg${k}_$n.err"
        echo "mpir pcg k=$k $m rc=$?"
    done
done
echo "total $((SECONDS - t0)) s"
