#!/usr/bin/env bash
# Device batch: CG / MPIR-CG solves (sell_i16, phases off) under several environment settings,
# after the GPU tests named by TESTS (Catch2 filter) pass.
# usage: CFGS="name=ENV=VAL,ENV=VAL name2=..." TESTS="[solvers]" scripts/experiments/cg_env_ab.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
export SPMV_COMMIT=${SPMV_COMMIT:-unknown}
R=$OUT/ab; mkdir -p $R
t0=$(date +%s)
source scripts/device_build.sh
device_build $R spmvlab test_gpu || exit 1
S=build-device/cli/spmvlab
if [ -n "${TESTS:-}" ]; then
  build-device/tests/test_gpu "$TESTS" > $R/tests.txt 2>&1; echo "tests rc=$? $(tail -2 $R/tests.txt | tr '\n' ' ')"
fi
if [ -n "${MEMCHECK:-}" ]; then
  timeout 300 compute-sanitizer --tool memcheck --error-exitcode 3 build-device/tests/test_gpu "$MEMCHECK" > $R/memcheck.txt 2>&1; echo "memcheck rc=$? $(tail -2 $R/memcheck.txt | tr '\n' ' ')"
fi
summ() { python3 - "$@" <<'PY'
import json,sys
f=sys.argv[1]
try: d=json.load(open(f))
except Exception as e: print(f"{f} FAILED {e}"); sys.exit(0)
it=d['iterations']; d.setdefault('total_ms_median', d.get('median_total_ms')); d.setdefault('total_ms_min', d.get('min_total_ms')); print(f"{f.split('/')[-1][:-5]:30s} it={it} med={d['total_ms_median']:.2f} min={d['total_ms_min']:.2f} per-it={1000*d['total_ms_median']/it:.1f}us {d['status']} res={d.get('final_relative_residual'):.2e}")
PY
}
for k in ${SIZES:-100 150}; do
  for cfg in ${CFGS:-base=X=1}; do
    name=${cfg%%=*}; envs=${cfg#*=}
    for m in ${METHODS:-cg mpir-cg}; do
      tag=pde${k}_${m}_$name
      env SPMV_SOLVER_PHASES=${PHASES:-off} ${envs//,/ } $S solve gen:pde:size=$k --gpu --json --format sell --sigma 32 --variant sell_i16 --tol 1e-10 --maxit 20000 --repeat ${REP:-5} --method $m --inner-reduction 1e-2 > $R/$tag.json 2>$R/$tag.err
      summ $R/$tag.json
    done
  done
done
echo "total $(( $(date +%s)-t0 )) s"
