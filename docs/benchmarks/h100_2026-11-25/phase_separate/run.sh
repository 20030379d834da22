#!/usr/bin/env bash
# Session-10 device batch: `spmvlab solve --repeat` times its runs without CUDA phase events and
# takes the phase breakdown from one more, instrumented run (--phase-times separate, the
# default). Build; the [gpu] suite; the CLI tests (their --gpu branch); memcheck on [solvers];
# then CG and MPIR-CG on pde100 and pde150 (sell_i16, sigma 32), three rounds of the default
# command (CG then MPIR-CG, alternating) and one round with --phase-times inline.
# Usage: SPMV_COMMIT=<sha> bash docs/benchmarks/h100_2026-11-25/phase_separate/run.sh
# Writes $OUT/ps/ (summary.txt, results.jsonl, gpu.csv, logs); the device tool returns only the
# first 8 files in name order, so the summary is printed on stdout as well.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export SPMV_COMMIT=${SPMV_COMMIT:-unknown}
R=$OUT/ps; mkdir -p "$R"
t0=$SECONDS
source scripts/device_build.sh
device_build "$R" spmvlab test_gpu test_cli || exit 1
T=build-device/tests/test_gpu
C=build-device/tests/cli/test_cli
S=build-device/cli/spmvlab
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,ecc.mode.current --format=csv > "$R/gpu.csv" 2>&1
{
  echo "# printed by run.sh on the device tool's GPU, SPMV_COMMIT=$SPMV_COMMIT, $(date -u +%F)"
  $T "[gpu]~[.]" > "$R/test_gpu.txt" 2>&1; echo "# test_gpu [gpu]~[.] rc=$? $(tail -2 "$R/test_gpu.txt" | tr '\n' ' ')"
  $C > "$R/test_cli.txt" 2>&1; echo "# test_cli rc=$? $(grep -c 'did not run' "$R/test_cli.txt") skipped-gpu-branch; $(tail -2 "$R/test_cli.txt" | tr '\n' ' ')"
  timeout 420 compute-sanitizer --tool memcheck --error-exitcode 3 $T "[solvers]" > "$R/memcheck.txt" 2>&1
  echo "# memcheck [solvers] rc=$? $(tail -1 "$R/memcheck.txt")"
  echo "# tests done at $((SECONDS - t0)) s"
} | tee "$R/summary.txt"
run() {  # tag, extra options
  local tag=$1; shift
  $S solve gen:pde:size=$K --gpu --json --format sell --sigma 32 --variant sell_i16 --tol 1e-10 \
     --maxit 20000 --repeat ${REP:-9} --inner-reduction 1e-2 "$@" > "$R/one.json" 2> "$R/$tag.err"
  python3 -c "import json,sys; d=json.load(open('$R/one.json')); d['tag']='$tag'; print(json.dumps(d))" >> "$R/results.jsonl"
}
for K in 100 150; do
  for round in 1 2 3; do
    run pde${K}_cg_separate_$round --method cg
    run pde${K}_mpir-cg_separate_$round --method mpir-cg
  done
  run pde${K}_cg_inline --method cg --phase-times inline
  run pde${K}_mpir-cg_inline --method mpir-cg --phase-times inline
done
rm -f "$R/one.json"
python3 - "$R" <<'PY' | tee -a "$R/summary.txt"
import json, sys, statistics as st
R = sys.argv[1]
rows = [json.loads(l) for l in open(R + '/results.jsonl')]
print(f"# device {rows[0]['where']}; commit {rows[0]['commit']}; median of {len(rows[0]['total_ms_runs'])} solves per row, ms")
t = {}
for d in rows:
    tm = d['times_ms']
    ph = f"phase run {tm.get('phase_run_total', 0):7.2f}" if d['phase_times'] == 'separate' else ''
    print(f"{d['tag']:28s} it={d['iterations']:4d} median={d['total_ms_median']:7.2f} min={d['total_ms_min']:7.2f} max={max(d['total_ms_runs']):7.2f} {ph} {d['status']} res={d['final_relative_residual']:.2e} spmv={tm['spmv']:.2f} vec={tm['vector']:.2f} red={tm['reduction']:.2f} xfer={tm['transfer']:.2f}")
    t[d['tag']] = d['total_ms_median']
for k in (100, 150):
    rs = [t[f'pde{k}_mpir-cg_separate_{i}'] / t[f'pde{k}_cg_separate_{i}'] for i in (1, 2, 3)]
    print(f"pde{k} default (phase times separate): MPIR/CG per round " + " ".join(f"{r:.3f}" for r in rs) + f"; median {st.median(rs):.3f}")
    print(f"pde{k} --phase-times inline:          MPIR/CG {t[f'pde{k}_mpir-cg_inline'] / t[f'pde{k}_cg_inline']:.3f}")
PY
echo "# total $((SECONDS - t0)) s" | tee -a "$R/summary.txt"
