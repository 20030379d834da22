#!/usr/bin/env bash
# session-7 device batch: p.Ap fused into the SELL SpMV — build, tests, sanitizers, solver A/B, ncu
set -uo pipefail
export SPMV_COMMIT=${SPMV_COMMIT:-unknown}
R=$OUT/r10; mkdir -p $R
prefix="$PWD/.deps/deps/usr;$PWD/.deps/catch2/usr;$PWD/.deps/cli11/usr;$PWD/.deps/json/usr"
t0=$(date +%s)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMV_BUILD_GUI=OFF -DSPMV_BUILD_TUTORIALS=OFF \
  -DCMAKE_CUDA_ARCHITECTURES=90 "-DCMAKE_PREFIX_PATH=$prefix" > $R/configure.log 2>&1 || { tail -30 $R/configure.log; exit 1; }
ninja -C build -j16 > $R/build.log 2>&1 || { grep -B5 -A20 "error" $R/build.log | head -80; exit 1; }
echo "build $(( $(date +%s)-t0 )) s"
T=build/tests/test_gpu
S=build/cli/spmvlab
if [ "${CTEST:-1}" = 1 ]; then
  (cd build && ctest -j8 --output-on-failure > $R/ctest.txt 2>&1); echo "ctest rc=$?"; tail -3 $R/ctest.txt
  grep -E "Failed|\*\*\*|FAILED" $R/ctest.txt | head -20
fi
if [ "${SAN:-1}" = 1 ]; then
  timeout 240 compute-sanitizer --tool memcheck --error-exitcode 3 $T "[spmv_dot]" > $R/memcheck_dot.txt 2>&1
  echo "memcheck rc=$?"; tail -n 2 $R/memcheck_dot.txt
  timeout 200 compute-sanitizer --tool racecheck --error-exitcode 3 $T "[spmv_dot]~[solvers]" > $R/racecheck_dot.txt 2>&1
  echo "racecheck rc=$?"; tail -n 2 $R/racecheck_dot.txt
fi
echo "t=$(( $(date +%s)-t0 )) s"
solve() { # tag k method...
  local tag=$1 k=$2; shift 2
  env SPMV_DUMMY=1 $E $S solve gen:pde:size=$k --gpu --json --format sell --sigma 32 --variant sell_i16 --tol 1e-10 --maxit 20000 --repeat ${REP:-5} "$@" > $R/$tag.json 2>$R/$tag.err
  python3 - $R/$tag.json $tag <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
t=d['times_ms']; it=d['iterations']
print(f"{sys.argv[2]:24s} it={it} med={d['total_ms_median']:.2f} min={d['total_ms_min']:.2f} per-it={1000*d['total_ms_median']/it:.1f}us spmv={t['spmv']:.2f} vec={t['vector']:.2f} red={t['reduction']:.2f} xfer={t['transfer']:.2f} {d['status']} res={d.get('final_relative_residual')}")
PY
}
if [ "${SOLVE:-1}" = 1 ]; then
for k in 100 150; do
  for cfg in fused unfused fused_phoff unfused_phoff; do
    E=""
    case $cfg in unfused) E="SPMV_CG_FUSED_PQ=off";; fused_phoff) E="SPMV_SOLVER_PHASES=off";; unfused_phoff) E="SPMV_SOLVER_PHASES=off SPMV_CG_FUSED_PQ=off";; esac
    for m in cg mpir; do
      margs=(--method cg); [ $m = mpir ] && margs=(--method mpir-cg --inner-reduction 1e-2)
      solve pde${k}_${m}_$cfg $k "${margs[@]}"
    done
  done
done
fi
echo "t=$(( $(date +%s)-t0 )) s"
if [ "${NCU:-1}" = 1 ]; then
for m in cg mpir; do
  margs=(--method cg); [ $m = mpir ] && margs=(--method mpir-cg --inner-reduction 1e-2)
  timeout 200 ncu --metrics gpu__time_duration.sum --cache-control none --clock-control none --launch-skip 600 --launch-count 36 --csv \
    $S solve gen:pde:size=100 --gpu --format sell --sigma 32 --variant sell_i16 --tol 1e-10 --maxit 20000 "${margs[@]}" > $R/ncu_$m.csv 2> $R/ncu_$m.err
  echo "ncu $m rc=$?"
  python3 - $R/ncu_$m.csv <<'PY'
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>5]
hi=[i for i,r in enumerate(rows) if 'Kernel Name' in r]
if not hi: print("no header"); sys.exit()
rows=rows[hi[0]:]
h=rows[0]
try:
  ki=h.index('Kernel Name'); vi=h.index('Metric Value'); ui=h.index('Metric Unit')
except ValueError: print(h); sys.exit()
agg=collections.defaultdict(list)
for r in rows[1:]:
  v=float(r[vi].replace(',','')); u=r[ui]
  if u in ('nsecond','ns'): v/=1000
  elif u=='msecond': v*=1000
  agg[r[ki][:60]].append(v)
for k,v in agg.items(): print(f"{len(v):3d} x {sum(v)/len(v):8.2f} us  {k}")
PY
done
fi
echo "t=$(( $(date +%s)-t0 )) s"
cd $OUT && tar czf r10.tgz r10 && rm -rf r10
