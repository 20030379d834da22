#!/usr/bin/env bash
# Session 30's device batch (issue 37; one H200): after CSR vector's shuffle sum left the issue
# count (docs/benchmarks/model_shuffle_2026-11-30), the three matrices whose held-out first
# picks were the worst measured again, every own variant and cuSPARSE in one run, ranked by
# `recommend --gpu auto --bench` on that run; then the distributed model's held-out pde400
# records (test_core "[dist_model_records]", hidden: 9 GB of host memory) on the machine's CPU.
# Usage (device machine, repository root with .deps and .mtx/s30/*.mtx):
#   SPMV_COMMIT=<sha> OUT=DIR bash scripts/experiments/s30.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
device_build $OUT/logs spmvlab test_core > $OUT/build.txt 2>&1 || { cat $OUT/build.txt; exit 1; }
cat $OUT/build.txt
B=build-device/cli/spmvlab
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.memory --format=csv > $OUT/gpu.csv
timeout 150 $B bench --gpu --precision both --min-time 100 --min-reps 50 .mtx/s30 \
    --json-out $OUT/bench.json > $OUT/bench.txt 2> $OUT/bench.err
echo "bench rc=$?"
$B recommend --gpu auto --precision both --bench $OUT/bench.json --top 6 .mtx/s30 > $OUT/recommend.txt 2>&1
echo "recommend rc=$?"
$B recommend --gpu auto --precision both --bench $OUT/bench.json --json --top 30 .mtx/s30 > $OUT/recommend.json 2>&1
( timeout 380 build-device/tests/test_core "[dist_model_records]" -s > $OUT/records_full.txt 2>&1; echo "test rc=$?"; )
grep -E "ratio|passed|failed" $OUT/records_full.txt | tail -30
cd $OUT && tar czf out.tgz *.txt *.json *.csv 2>/dev/null; ls
