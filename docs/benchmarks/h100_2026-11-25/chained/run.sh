#!/usr/bin/env bash
# Session-9 device batch: chained CG launches, skipped SpMV after the stop, inner solves from zero.
# Build, the [gpu] suite, sanitizers on the solver and fused-dot tests, then CG / MPIR-CG on
# pde100 and pde150 (sell_i16, sigma 32) with and without phase events and chaining.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export SPMV_COMMIT=${SPMV_COMMIT:-unknown}
R=$OUT/chained; mkdir -p $R
t0=$(date +%s)
source scripts/device_build.sh
device_build $R spmvlab test_gpu || exit 1
T=build-device/tests/test_gpu
S=build-device/cli/spmvlab
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,ecc.mode.current --format=csv > $R/gpu.csv 2>&1
$T "[gpu]~[.]" > $R/test_gpu.txt 2>&1; echo "test_gpu rc=$? $(tail -2 $R/test_gpu.txt | tr '\n' ' ')"
timeout 300 compute-sanitizer --tool memcheck --error-exitcode 3 $T "[solvers],[spmv_dot]" > $R/memcheck.txt 2>&1
echo "memcheck rc=$? $(tail -1 $R/memcheck.txt)"
timeout 240 compute-sanitizer --tool racecheck --error-exitcode 3 $T "[spmv_dot]~[solvers]" > $R/racecheck.txt 2>&1
echo "racecheck rc=$? $(tail -1 $R/racecheck.txt)"
echo "t=$(( $(date +%s)-t0 )) s"
for k in 100 150; do
  for cfg in "off chained" "off plain" "on chained" "on plain"; do
    set -- $cfg; ph=$1; ch=$2
    E="SPMV_SOLVER_PHASES=$ph"; [ $ch = plain ] && E="$E SPMV_CG_CHAINED=off"
    for m in cg mpir-cg; do
      tag=pde${k}_${m}_phases-${ph}_$ch
      env $E $S solve gen:pde:size=$k --gpu --json --format sell --sigma 32 --variant sell_i16 --tol 1e-10 --maxit 20000 --repeat ${REP:-7} --method $m --inner-reduction 1e-2 > $R/$tag.json 2>$R/$tag.err
    done
  done
done
python3 - $R <<'PY' | tee $R/summary.txt
import json,sys,glob,os
R=sys.argv[1]; t={}
for f in sorted(glob.glob(R+'/pde*.json')):
  d=json.load(open(f)); tag=os.path.basename(f)[:-5]; t[tag]=d
  print(f"{tag:36s} it={d['iterations']:4d} median={d['total_ms_median']:7.2f} min={d['total_ms_min']:7.2f} max={max(d['total_ms_runs']):7.2f} {d['status']} res={d['final_relative_residual']:.2e}")
for k in (100,150):
  for ph in ('off','on'):
    for ch in ('chained','plain'):
      a=t.get(f'pde{k}_mpir-cg_phases-{ph}_{ch}'); b=t.get(f'pde{k}_cg_phases-{ph}_{ch}')
      if a and b: print(f"pde{k} phases {ph:3s} {ch:8s} MPIR/CG = {a['total_ms_median']/b['total_ms_median']:.3f}")
PY
echo "total $(( $(date +%s)-t0 )) s"
