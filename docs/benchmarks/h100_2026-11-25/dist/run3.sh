#!/usr/bin/env bash
# Third device batch (one H100): where MPIR-CG's distributed iteration counts come from (the
# mode: vector mode's merged block rounds each row once, task/overlap round a halo row after
# its local part), and the 2-rank timelines of pde150 sharing the GPU. Logs to $OUT.
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
{
for n in 1 2 4; do
  for mode in vector overlap task; do
    for s in double float; do
      echo "=== mpir-cg pde100 sell, $n rank(s), $mode mode, inner sums $s"
      timeout 200 $MPI $n $B dist solve gen:pde:size=100 --gpu --format sell --method mpir-cg \
        --inner-sums $s --mode $mode | tail -1
    done
  done
done
echo "=== cg pde100 sell, 4 ranks, vector mode"
timeout 200 $MPI 4 $B dist solve gen:pde:size=100 --gpu --format sell --method cg --mode vector | tail -1
echo "=== dist bench pde150 2 ranks (timelines)"
timeout 200 $MPI 2 $B dist bench gen:pde:size=150 --gpu --format sell --repeat 100 \
   --json-out "$OUT/b2_sell.json" --timeline "$OUT/tl2" | tail -4
echo "=== dist bench pde150 1 rank, the defaults (csr, double, nnz partition)"
timeout 200 $MPI 1 $B dist bench gen:pde:size=150 --gpu --repeat 300 --json-out "$OUT/b1_defaults.json" | tail -3
} 2>&1 | tee "$OUT/summary.txt"
