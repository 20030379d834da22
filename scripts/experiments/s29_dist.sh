#!/usr/bin/env bash
# Session 29's second device batch (issue 37; one H200, its CPU): the distributed model's held-out
# pde400 records (test_core "[dist_model_records]", hidden: 9 GB) and dist plan of pde400 in SELL
# on 2 and 4 ranks, with the format model's overlap q (docs/benchmarks/model_overlap_2026-11-29/dist).
# Usage (device machine, repository root with .deps): SPMV_COMMIT=<sha> OUT=DIR bash scripts/experiments/s29_dist.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
device_build $OUT/logs spmvlab test_core > $OUT/build.txt 2>&1 || { cat $OUT/build.txt; exit 1; }
cat $OUT/build.txt
B=build-device/cli/spmvlab
for P in 2 4; do
  ( timeout 500 $B dist plan gen:pde:size=400 --gpu --device H200 --format sell --ranks $P --partition nnz --exchange cuda-ipc --link nvlink4 --scaling none --json-out $OUT/plan_sell_$P.json > $OUT/plan_sell_$P.txt 2>&1; echo "plan sell $P rc=$?" ) &
done
( timeout 560 build-device/tests/test_core "[dist_model_records]" -s > $OUT/records_full.txt 2>&1; echo "test rc=$?"; ) &
wait
grep -E "with expansion|CHECK|ratio|passed|failed" $OUT/records_full.txt | tail -20
python3 - <<'PY'
import json,os
for P,meas in ((2,770.0),(4,398.0)):
    f=os.environ['OUT']+'/plan_sell_%d.json'%P
    try:
        d=json.load(open(f)); p=d['predicted_us']
        print(P, {k:(round(v,1), round(v/meas,3)) for k,v in p.items()} if isinstance(p,dict) else p)
    except Exception as e: print(P,'no plan',e)
PY
cd $OUT && tar czf out.tgz *.txt *.json 2>/dev/null; ls
