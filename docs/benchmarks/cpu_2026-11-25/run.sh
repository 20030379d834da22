#!/usr/bin/env bash
# 2 MPI ranks on the 2-core development / CI machine (AMD EPYC VM, host ranks, double, csr):
# the three modes of the distributed SpMV on pde80 and pde100, task mode with the default poll
# interval (auto: 20 us here) and with MPI_Waitall; timelines of three recorded products.
# Usage: docs/benchmarks/cpu_2026-11-25/run.sh [path/to/spmvlab]
set -euo pipefail
cd "$(dirname "$0")"
B=${1:-../../../build/cli/spmvlab}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for k in 80 100; do
  for poll in -1 0; do
    echo "== pde$k, task-poll-us $poll"
    mpiexec -n 2 "$B" dist bench gen:pde:size=$k --repeat 200 --task-poll-us $poll \
      --json-out bench2_pde${k}_poll${poll}.json --timeline timeline2_pde${k}_poll${poll}
  done
done
