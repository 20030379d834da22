#!/usr/bin/env bash
# Device batch: per-kernel time, DRAM bytes and occupancy of CG / MPIR-CG iterations (ncu).
set -uo pipefail
cd "$(dirname "$0")/../.."
export SPMV_COMMIT=${SPMV_COMMIT:-unknown}
R=$OUT/ncu; mkdir -p $R
t0=$(date +%s)
source scripts/device_build.sh
device_build $R spmvlab || exit 1
S=build-device/cli/spmvlab
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__occupancy_limit_registers
for k in ${SIZES:-100 150}; do
  for m in cg mpir-cg; do
    SPMV_SOLVER_PHASES=off timeout 200 ncu --metrics $M --cache-control none --clock-control none --launch-skip ${SKIP:-600} --launch-count ${COUNT:-30} --csv \
      $S solve gen:pde:size=$k --gpu --format sell --sigma 32 --variant sell_i16 --tol 1e-10 --method $m --inner-reduction 1e-2 > $R/pde${k}_$m.csv 2> $R/pde${k}_$m.err
    echo "== pde$k $m rc=$?"
    python3 - $R/pde${k}_$m.csv <<'PY'
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
h=rows[0]; rows=rows[1:]
ki=h.index('Kernel Name'); mi=h.index('Metric Name'); vi=h.index('Metric Value'); ii=h.index('ID')
d=collections.defaultdict(dict); name={}
for r in rows:
  try: v=float(r[vi].replace(',',''))
  except: continue
  d[r[ii]][r[mi]]=v; name[r[ii]]=r[ki][:60]
agg=collections.defaultdict(list)
for i in d: agg[name[i]].append(d[i])
for n,l in agg.items():
  def m(k): return sum(x.get(k,0) for x in l)/len(l)
  t=m('gpu__time_duration.sum')/1000; rd=m('dram__bytes_read.sum')/1e6; wr=m('dram__bytes_write.sum')/1e6
  print(f"{n:60s} n={len(l):2d} t={t:7.1f}us rd={rd:7.1f}MB wr={wr:6.1f}MB bw={(rd+wr)/t/1e3 if t else 0:5.2f}TB/s regs={m('launch__registers_per_thread'):.0f} grid={m('launch__grid_size'):.0f} occ={m('sm__warps_active.avg.pct_of_peak_sustained_active'):.0f}%")
PY
  done
done
echo "total $(( $(date +%s)-t0 )) s"
