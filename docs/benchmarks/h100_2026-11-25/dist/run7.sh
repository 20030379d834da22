#!/usr/bin/env bash
# Seventh device batch (one H100), after the review refactors (c004c42..05f1197): distributed
# CG / MPIR-CG on GPU ranks (the solve setup is one template now), verify on 2 GPU ranks, the
# 1-rank overhead with the defaults on pde150, and the [gpu][vector_ops] tests.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
source scripts/device_build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
OUT=${OUT:-/tmp/dist_out}
mkdir -p "$OUT"
device_build "$OUT/logs" spmvlab test_gpu || exit 1
B=build-device/cli/spmvlab
MPI="mpiexec --oversubscribe --bind-to none -n"
{
timeout 200 build-device/tests/test_gpu "[vector_ops]" | tail -2
for n in 1 2; do
  for m in cg jacobi-cg mpir-cg; do
    echo "=== dist solve pde100 sell $m, $n GPU rank(s)"
    timeout 200 $MPI $n $B dist solve gen:pde:size=100 --gpu --format sell --method $m | tail -1
  done
done
echo "=== dist verify --gpu 2 ranks sell"
timeout 120 $MPI 2 $B dist verify gen:pde:size=50 --gpu --format sell | grep -E "OK|MISMATCH"
echo "=== dist bench pde150 1 rank, defaults"
timeout 200 $MPI 1 $B dist bench gen:pde:size=150 --gpu --repeat 300 | tail -4
} 2>&1 | tee "$OUT/summary.txt"
