#!/usr/bin/env bash
# Fifth device batch (one H100), after the split by rows (2790a17): GPU ranks verified (1, 2, 4
# ranks sharing the GPU; csr, sell, pjds; double and float) and memchecked; MPIR-CG and CG
# iterations on pde100 in every mode and rank count; the 1-rank overhead on pde150 (defaults,
# and sell); the 2-rank pde150 timelines. Logs and records to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
source scripts/device_build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
OUT=${OUT:-/tmp/dist_out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
device_build "$OUT/logs" spmvlab test_gpu || exit 1
B=build-device/cli/spmvlab
MPI="mpiexec --oversubscribe --bind-to none -n"
{
echo "=== [gpu][vector_ops]"
timeout 200 build-device/tests/test_gpu "[vector_ops]" | tail -2
for n in 2 4; do
  for f in csr sell pjds; do
    echo "=== dist verify --gpu $n ranks $f (DP pde50, SP powerlaw)"
    timeout 120 $MPI $n $B dist verify gen:pde:size=50 --gpu --format $f | grep -E "MISMATCH|rank\(s\)"
    timeout 120 $MPI $n $B dist verify gen:powerlaw:rows=300000 --gpu --format $f --precision float | grep -E "MISMATCH|rank\(s\)"
  done
done
echo "=== memcheck: dist verify --gpu on 2 ranks, pde60 (split by rows)"
timeout 300 $MPI 2 compute-sanitizer --tool memcheck --error-exitcode 9 $B dist verify gen:pde:size=60 --gpu --format sell | grep -E "ERROR SUMMARY|MISMATCH"
for n in 1 2 4; do
  for mode in vector overlap task; do
    for s in double float; do
      echo "=== mpir-cg pde100 sell, $n rank(s), $mode, inner sums $s"
      timeout 200 $MPI $n $B dist solve gen:pde:size=100 --gpu --format sell --method mpir-cg --inner-sums $s --mode $mode | tail -1
    done
  done
  echo "=== cg pde100 sell, $n rank(s), task"
  timeout 200 $MPI $n $B dist solve gen:pde:size=100 --gpu --format sell --method cg --mode task | tail -1
done
for f in csr sell; do
  echo "=== dist bench pde150 1 rank $f double"
  timeout 200 $MPI 1 $B dist bench gen:pde:size=150 --gpu --format $f --repeat 300 --json-out "$OUT/b1_$f.json" | tail -3
done
echo "=== dist bench pde150 2 ranks sharing the GPU (timelines)"
timeout 200 $MPI 2 $B dist bench gen:pde:size=150 --gpu --format sell --repeat 100 --json-out "$OUT/b2_sell.json" --timeline "$OUT/timeline2" | tail -4
} 2>&1 | tee "$OUT/summary.txt"
