#!/usr/bin/env bash
# Second device batch of the distributed SpMV, one H100 (after the compressed non-local block
# and double sums for float GPU ranks): the 1-rank overhead against the single-process SpMV on
# pde150 (DP and SP, sell / csr / pjds), 2 and 4 ranks sharing the GPU (verify + bench),
# distributed CG / MPIR-CG on GPU ranks against the single-process solves, memcheck of the
# distributed GPU path, and the whole [gpu] suite. Logs and records to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
source scripts/device_build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
OUT=${OUT:-/tmp/dist_out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
device_build "$OUT" spmvlab test_gpu test_mpi || exit 1
B=build-device/cli/spmvlab
MPI="mpiexec --oversubscribe --bind-to none -n"
{
echo "=== [gpu] suite"
timeout 420 build-device/tests/test_gpu "[gpu]~[.]" | tail -3
for n in 2 4; do
  echo "=== test_mpi on $n CPU ranks"
  timeout 200 $MPI $n build-device/tests/test_mpi | tail -1
  for f in csr sell pjds; do
    echo "=== dist verify --gpu $n ranks $f (DP, then SP)"
    timeout 120 $MPI $n $B dist verify gen:pde:size=50 --gpu --format $f | tail -4
    timeout 120 $MPI $n $B dist verify gen:powerlaw:rows=300000 --gpu --format $f --precision float | tail -4
  done
done
echo "=== memcheck: dist verify --gpu on 2 ranks"
timeout 300 $MPI 2 compute-sanitizer --tool memcheck --error-exitcode 9 $B dist verify gen:pde:size=30 --gpu --format sell | grep -E "ERROR SUMMARY|OK|MISMATCH" | head -8
for p in double float; do
  for f in sell csr pjds; do
    echo "=== dist bench pde150 1 rank $f $p"
    timeout 200 $MPI 1 $B dist bench gen:pde:size=150 --gpu --format $f --precision $p --repeat 300 \
       --json-out "$OUT/b1_${f}_${p}.json" | tail -3
  done
done
echo "=== dist bench pde150 2 ranks sharing the GPU (functional), with timelines"
timeout 200 $MPI 2 $B dist bench gen:pde:size=150 --gpu --format sell --repeat 100 \
   --json-out "$OUT/b2_sell.json" --timeline "$OUT/tl2" | tail -4
for n in 1 2 4; do
  echo "=== dist solve pde100 cg $n rank(s)"
  timeout 200 $MPI $n $B dist solve gen:pde:size=100 --gpu --format sell --method cg | tail -1
done
for n in 1 2 4; do
  for s in double float; do
    echo "=== dist solve pde100 mpir-cg inner sums $s, $n rank(s)"
    timeout 200 $MPI $n $B dist solve gen:pde:size=100 --gpu --format sell --method mpir-cg --inner-sums $s | tail -1
  done
done
echo "=== single-process solves (iterations)"
for m in cg mpir-cg; do
  for s in double float; do
    echo "--- $m inner sums $s"
    timeout 200 $B solve gen:pde:size=100 --gpu --format sell --method $m --inner-sums $s 2>&1 | grep -E "^iterations|inner iter|final relative"
  done
done
} 2>&1 | tee "$OUT/summary.txt"
