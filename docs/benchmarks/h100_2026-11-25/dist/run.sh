#!/usr/bin/env bash
# Device batch of the distributed SpMV (issue "Distributed SpMV over MPI"), one GPU:
#   build; [gpu] vector_ops tests; the MPI tests on 1-4 CPU ranks; dist verify on GPU ranks
#   (1, 2, 4 ranks sharing the GPU) for csr, sell, pjds and every mode; dist bench on pde150
#   with 1 rank against the single-process SpMV of the same format (the <= 5 % bar), and with 2
#   and 4 ranks sharing the GPU (functional); distributed CG / MPIR-CG on GPU ranks.
# Run from the repository root on the device machine (carry .deps); logs and records to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
source scripts/device_build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
OUT=${OUT:-/tmp/dist_out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
ompi_info | grep -iE "Open MPI:|progress|cuda" | head -5
device_build "$OUT" spmvlab test_gpu test_mpi || exit 1
B=build-device/cli/spmvlab
MPI="mpiexec --oversubscribe --bind-to none -n"
{
echo "=== [gpu] vector_ops and solvers tests"
timeout 300 build-device/tests/test_gpu "[vector_ops],[solvers]" | tail -3
for n in 1 2 4; do
  echo "=== test_mpi on $n CPU ranks"
  timeout 300 $MPI $n build-device/tests/test_mpi | tail -2
done
for n in 1 2 4; do
  for f in csr sell pjds; do
    echo "=== dist verify --gpu $n ranks $f"
    timeout 120 $MPI $n $B dist verify gen:pde:size=40 --gpu --format $f --sigma 32 --partition nnz
    echo "rc=$?"
  done
  timeout 120 $MPI $n $B dist verify gen:powerlaw:rows=200000 --gpu --format sell --precision float --partition rows; echo "rc=$?"
done
for f in sell csr; do
  echo "=== dist bench pde150 1 rank $f"
  timeout 300 $MPI 1 $B dist bench gen:pde:size=150 --gpu --format $f --repeat 300 \
     --json-out "$OUT/bench1_$f.json"
done
for n in 2 4; do
  echo "=== dist bench pde150 $n ranks sharing the GPU (functional)"
  timeout 300 $MPI $n $B dist bench gen:pde:size=150 --gpu --format sell --repeat 100 \
     --json-out "$OUT/bench${n}_sell.json" --timeline "$OUT/timeline${n}"
done
for n in 1 2; do
  for m in cg mpir-cg; do
    echo "=== dist solve pde100 $m $n rank(s)"
    timeout 200 $MPI $n $B dist solve gen:pde:size=100 --gpu --format sell --method $m
  done
done
echo "=== single-process solves for the iteration counts"
timeout 200 $B solve gen:pde:size=100 --gpu --format sell --method cg 2>&1 | head -8
timeout 200 $B solve gen:pde:size=100 --gpu --format sell --method mpir-cg --inner-sums float 2>&1 | head -8
} 2>&1 | tee "$OUT/summary.txt"
