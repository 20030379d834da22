#!/usr/bin/env bash
# Sixth device batch (one H100): GPU ranks on the corner cases — more ranks than rows (empty
# ranks), a rectangular matrix, a rank without halo — for csr, sell and pjds, in every mode.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
source scripts/device_build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
OUT=${OUT:-/tmp/dist_out}
mkdir -p "$OUT"
device_build "$OUT/logs" spmvlab || exit 1
B=build-device/cli/spmvlab
MPI="mpiexec --oversubscribe --bind-to none -n"
{
for f in csr sell pjds; do
  echo "=== $f: canonical 4x4 on 6 GPU ranks (2 empty)"
  timeout 120 $MPI 6 $B dist verify sample_matrices/canonical4.mtx --gpu --format $f --partition rows | grep -E "OK|MISMATCH|error|rank\(s\)"
  echo "=== $f: rectangular random 300x1200 on 3 GPU ranks"
  timeout 120 $MPI 3 $B dist verify gen:random:rows=300,cols=1200,nnz-per-row=5 --gpu --format $f | grep -E "OK|MISMATCH|error|rank\(s\)"
  echo "=== $f: block-diagonal-free halo: banded_1k on 2 GPU ranks, float"
  timeout 120 $MPI 2 $B dist verify sample_matrices/banded_1k.mtx --gpu --format $f --precision float | grep -E "OK|MISMATCH|error|rank\(s\)"
done
} 2>&1 | tee "$OUT/summary.txt"
