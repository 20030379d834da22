#!/usr/bin/env bash
# Session 20 device batch (one H200; issues 34 and 35), from the repository root with .deps
# carried and SPMV_COMMIT set: the [gpu] suite, then the GPU commands' JSON (bench, verify,
# solve, recommend, calibrate, dist verify / bench / solve, bench --warp-timeline) written under
# $OUT/json for the closed schemas to validate where python3-jsonschema is (this machine has none:
# tests/cli/validate_json.py --closed on the lead's machine).
set -uo pipefail
export SPMV_COMMIT=${SPMV_COMMIT:?}
t0=$SECONDS
source scripts/device_build.sh
device_build "$OUT/logs" spmvlab test_gpu test_cli_schema || exit 1
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv > "$OUT/gpu.txt"
timeout 300 build-device/tests/test_gpu "[gpu]~[.]" > "$OUT/test_gpu.txt" 2>&1
echo "test_gpu rc=$? $((SECONDS - t0)) s"; tail -3 "$OUT/test_gpu.txt"
grep -B3 -A15 "FAILED" "$OUT/test_gpu.txt" | head -40
timeout 120 build-device/tests/cli/test_cli_schema "[gpu]" > "$OUT/test_cli_schema_gpu.txt" 2>&1
echo "test_cli_schema [gpu] rc=$?"; tail -3 "$OUT/test_cli_schema_gpu.txt"
S=build-device/cli/spmvlab J=$OUT/json P=sample_matrices/powerlaw_2k.mtx
mkdir -p "$J"
run() { local name=$1; shift; timeout 120 "$S" "$@" > "$J/$name.json" 2> "$J/$name.err"; echo "$name rc=$?"; }
run bench bench gen:pde:size=20 "$P" --gpu --min-time 1 --json
run bench_auto bench gen:pde:size=12 --gpu --formats auto --min-time 1 --json
run verify verify gen:pde:size=10 "$P" --gpu --json
run solve solve gen:pde:size=10 --gpu --json
run solve_mpir solve gen:pde:size=10 --gpu --method mpir-cg --format auto --variant auto --json
run recommend recommend gen:pde:size=10 --bench "$J/bench.json" --json
timeout 120 "$S" bench gen:pde:size=20 --gpu --formats csr_vector,sell --min-time 1 \
    --warp-timeline "$J/warp_timeline.json" > "$J/warp.out" 2>&1; echo "warp-timeline rc=$?"
for m in verify bench solve; do
    extra=; [ $m = verify ] && extra="--mode all"; [ $m = bench ] && extra="--repeat 3"
    timeout 120 "$S" dist $m gen:pde:size=8 --gpu $extra --json-out "$J/dist_$m.json" \
        > "$J/dist_$m.out" 2>&1; echo "dist $m rc=$?"
done
if [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then
    for m in verify bench solve; do
        extra=; [ $m = verify ] && extra="--mode all"; [ $m = bench ] && extra="--repeat 3"
        timeout 120 mpirun --allow-run-as-root --oversubscribe -n 2 "$S" dist $m gen:pde:size=30 \
            --gpu $extra --json-out "$J/dist2_$m.json" > "$J/dist2_$m.out" 2>&1; echo "dist x2 $m rc=$?"
    done
fi
echo "total $((SECONDS - t0)) s"
