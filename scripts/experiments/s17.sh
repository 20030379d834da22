#!/usr/bin/env bash
# Session 17 device batch (issues 31 and 32), run from the repository root on the device
# machine with .deps and out/s17 carried (out/s17/longrow: the collection's long-row and
# circuit matrices; out/s17/spd: five real SPD matrices):
#   scripts/experiments/s17.sh build|tests|bench|solve|modes
# Outputs under $OUT/s17/<part>/. SPMV_COMMIT must be set (the copy has no .git).
set -uo pipefail
part=${1:?usage: s17.sh build|tests|bench|solve|modes}
out=${OUT:?}/s17/$part
mkdir -p "$out"
export SPMV_COMMIT=${SPMV_COMMIT:?}
t0=$SECONDS
S=build-device/cli/spmvlab
G=build-device/tests/test_gpu
case $part in
build)
    source scripts/device_build.sh
    device_build "$out" spmvlab test_gpu test_mpi || exit 1
    nvidia-smi --query-gpu=index,name,driver_version,ecc.mode.current,clocks.max.sm,memory.total \
        --format=csv > "$out/gpu.txt"
    cat "$out/gpu.txt"
    ;;
tests)
    # the whole [gpu] suite, then memcheck of the kernels this session added (float CG steps,
    # the captured timing graph)
    timeout 300 $G "[gpu]~[.]" --durations yes > "$out/test_gpu.txt" 2>&1
    echo "test_gpu rc=$? $((SECONDS - t0)) s"; tail -3 "$out/test_gpu.txt"
    grep -B2 -A12 "FAILED" "$out/test_gpu.txt" | head -60
    timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 \
        $G "GPU MPIR-CG*,bench times a body of 5*,bench gates*,bench of plain JDS*" > "$out/memcheck.txt" 2>&1
    echo "memcheck rc=$? $((SECONDS - t0)) s"; tail -4 "$out/memcheck.txt"
    ;;
bench)
    # issue 32's bar: every format timed on long-row circuit matrices and gen:onefull:n=20000
    timeout 420 $S bench out/s17/longrow gen:onefull:n=20000 --gpu --json \
        > "$out/bench_longrow.json" 2> "$out/bench_longrow.err"
    echo "bench rc=$? $((SECONDS - t0)) s"; tail -3 "$out/bench_longrow.err"
    python3 - "$out/bench_longrow.json" <<'PY' | tee "$out/summary.txt"
import json, sys, collections
j = json.load(open(sys.argv[1]))
rows = j["results"] if "results" in j else j.get("records", [])
per = collections.defaultdict(lambda: [0, 0, set()])
for r in rows:
    k = r["matrix"]
    per[k][0] += 1
    per[k][1] += 1 if r.get("error") else 0
    if r.get("timing", "").startswith("graph"):
        per[k][2].add(r["format"])
print("complete:", j.get("complete"), "matrices_done:", j.get("matrices_done"), "of", j.get("matrices_total"))
for k, (n, e, g) in per.items():
    print(f"{k}: {n} records, {e} with an error; timed as one CUDA graph: {sorted(g) or '-'}")
PY
    ;;
solve)
    # MPIR-CG as written (flexible beta, float inner CG throughout) against CG and the refinement
    for n in 100 150; do
        c=(solve gen:pde:size=$n --gpu --format sell --sigma 32 --variant sell_i16 --tol 1e-10 --repeat 3 --json)
        $S "${c[@]}" --method cg > "$out/cg_pde$n.json" 2> "$out/cg_pde$n.err"; echo "pde$n cg rc=$?"
        $S "${c[@]}" --method mpir-cg > "$out/rich_pde$n.json" 2> "$out/rich_pde$n.err"; echo "pde$n rich rc=$?"
        for K in 50 100 150 200; do
            $S "${c[@]}" --method mpir-cg --outer pcg --inner-maxit $K --max-outer 1000 \
                > "$out/pcg${K}_pde$n.json" 2> "$out/pcg${K}_pde$n.err"; echo "pde$n pcg $K rc=$?"
        done
    done
    for f in out/s17/spd/*.mtx; do
        m=$(basename "$f" .mtx)
        c=(solve "$f" --gpu --variant auto --tol 1e-10 --repeat 3 --json)
        $S "${c[@]}" --method cg > "$out/cg_$m.json" 2> "$out/cg_$m.err"; echo "$m cg rc=$?"
        $S "${c[@]}" --method mpir-cg > "$out/rich_$m.json" 2> "$out/rich_$m.err"; echo "$m rich rc=$?"
        for K in 25 50 100 200; do
            $S "${c[@]}" --method mpir-cg --outer pcg --inner-maxit $K --max-outer 1000 \
                > "$out/pcg${K}_$m.json" 2> "$out/pcg${K}_$m.err"; echo "$m pcg $K rc=$?"
        done
        [ $((SECONDS - t0)) -gt 500 ] && { echo "time limit: stopping after $m"; break; }
    done
    echo "total $((SECONDS - t0)) s"
    ;;
modes)
    BUDGET_S=${BUDGET_S:-480} docs/benchmarks/modes_2026-11-28/run.sh "$PWD/$S" "$out" "${RANKS:-2}"
    ;;
esac
echo "part $part: $((SECONDS - t0)) s"
