#!/usr/bin/env bash
# Fourth device batch (one H100), after the timeline merge fix (da42129): the 2-rank timelines
# of pde150 sharing the GPU (sell, double), re-recorded, and a distributed CG's timeline on 2
# GPU ranks (pde60), each file checked event by event. Logs to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
source scripts/device_build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
OUT=${OUT:-/tmp/dist_out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
device_build "$OUT/logs" spmvlab || exit 1
B=build-device/cli/spmvlab
MPI="mpiexec --oversubscribe --bind-to none -n"
check() {  # every event names a rank of the run, a lane and a phase
python3 - "$1" "$2" <<'PY'
import json, sys
t = json.load(open(sys.argv[1])); n = int(sys.argv[2]); bad = 0; total = 0
for tl in t:
    for e in tl["events"]:
        total += 1
        bad += not (0 <= e["rank"] < n and e["lane"] in ("compute", "comm", "gpu") and e["end_us"] >= e["begin_us"])
print(f"{sys.argv[1]}: {total} events, {bad} bad")
PY
}
{
echo "=== dist bench pde150 sell 2 ranks sharing the GPU (timelines)"
timeout 200 $MPI 2 $B dist bench gen:pde:size=150 --gpu --format sell --repeat 100 \
   --json-out "$OUT/bench2_sell.json" --timeline "$OUT/timeline2" | tail -4
check "$OUT/timeline2.json" 2
echo "=== dist solve pde60 cg, 2 GPU ranks, task mode (timeline)"
timeout 200 $MPI 2 $B dist solve gen:pde:size=60 --gpu --format sell --method cg --timeline "$OUT/solve2" | tail -2
check "$OUT/solve2.json" 2
} 2>&1 | tee "$OUT/summary.txt"
