#!/usr/bin/env bash
# before (host-shm 10 GB/s 0.5 us assumed, the old host-staged fixed costs) and after (built-in) per record
cd "$(dirname "$0")/../../.."
S=build/cli/spmvlab
for f in docs/benchmarks/modes_2026-11-28/h200x4/modes4_pde400_host-staged.json docs/benchmarks/modes_2026-11-28/h200x2/modes2_pde400_host-staged.json docs/benchmarks/modes_2026-11-28/h200x4/modes4_powerlaw_host-staged.json docs/benchmarks/modes_2026-11-28/h200x2/modes2_powerlaw_host-staged.json docs/benchmarks/nccl_2026-11-28/pde400/bench_2_csr_host-staged.json docs/benchmarks/nccl_2026-11-28/pde400/bench_2_sell_host-staged.json docs/benchmarks/nccl_2026-11-28/bench_2_csr_host-staged.json; do
  for which in before after; do
    if [ $which = before ]; then extra="--link 10,0.5 --fixed-costs 48.7,6.7,7.6,3.0,15.0"; else extra=""; fi
    echo "== $f $which"
    $S dist chart $f $extra --svg /tmp/c_$$.svg 2>&1 | grep -E "host-staged +[0-9]" | awk '{printf "%s %s meas %s model %s  model/meas %.2f\n",$2,$3,$5,$6,$6/$5}'
  done
done
