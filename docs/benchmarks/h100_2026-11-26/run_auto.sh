#!/usr/bin/env bash
# Device batch: the advisor end to end on the H100 at the commit that added it. `--formats
# auto` times only the advisor's first choice (bench), on the held-out half of the collection
# (.mtx/b) and the held-out generated matrices; `recommend --gpu auto` names the profile from the
# device; `solve --gpu --variant auto` and `dist bench --gpu --format auto` (one rank) run the
# choice. Compare the auto records with the full records of b/ and large/ (compare_auto.py).
#   SPMV_COMMIT=<commit> bash docs/benchmarks/h100_2026-11-26/run_auto.sh      (writes $OUT/auto/)
set -uo pipefail
out=${OUT:?}/auto; mkdir -p "$out"
source scripts/device_build.sh
device_build "$out/logs" spmvlab || exit 1
S=build-device/cli/spmvlab
t0=$SECONDS
"$S" bench --gpu --formats auto --precision both --min-time 10 --min-reps 20 .mtx/b \
    --json-out "$out/auto_b.json" > "$out/auto_b.txt" 2> "$out/auto_b.err"
echo "auto b rc=$? $((SECONDS - t0)) s"
"$S" bench --gpu --formats auto --precision both gen:pde:size=100 gen:pde:size=150 \
    gen:blocks5:block-rows=100000,blocks=8 gen:powerlaw:rows=1000000 \
    gen:powerlaw:rows=1000000,min-len=4,max-len=1000 gen:onefull:n=200000 \
    --json-out "$out/auto_large.json" > "$out/auto_large.txt" 2> "$out/auto_large.err"
echo "auto large rc=$? $((SECONDS - t0)) s"
"$S" recommend gen:pde:size=150 --precision both > "$out/recommend_pde150.txt" 2>&1
echo "recommend rc=$?"; head -2 "$out/recommend_pde150.txt"
"$S" solve gen:pde:size=100 --gpu --variant auto --method cg --tol 1e-8 > "$out/solve_auto.txt" 2>&1
echo "solve rc=$?"; grep -i "format auto" "$out/solve_auto.txt" | head -2
"$S" dist bench gen:pde:size=150 --gpu --format auto --json-out "$out/dist_auto.json" > "$out/dist_auto.txt" 2>&1
echo "dist rc=$?"; grep -i "format auto" "$out/dist_auto.txt" | head -2
