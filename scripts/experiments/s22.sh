#!/usr/bin/env bash
# Session 22 device batch (4 x H200; issue 36), from the repository root with .deps carried and
# SPMV_COMMIT set; results under $RESULTS (not $OUT: the device tool's own folder variable):
#   1. build; test_gpu "[gpu]~[.]" (the whole GPU suite); test_mpi "[gpu]" on RANKS ranks (row
#      chunks on GPU ranks, NCCL, per-rank input, SPMV_DIST_HOSTS=apart's IPC refusal);
#   2. the set-up bar: dist solve gen:pde:size=400 (sell, CG to 1e-10, task) with --load root
#      and --load auto on RANKS GPUs (setup_x2.sh), each rank building on its share of the
#      host's threads (setup.threads in the records);
#      and once more per rank with glibc's huge pages for its large blocks
#      (GLIBC_TUNABLES=glibc.malloc.hugetlb=1: fewer page faults where THP is madvise);
#   3. CG on pde400 on RANKS GPUs with NCCL (device and MPI reductions) and CUDA IPC
#      (pde1100_x4.sh with PDE=400), beside the 1-GPU time of the nccl_2026-11-28 records.
# Environment: RESULTS, RANKS (4), SKIP_BUILD=1.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
export SPMV_COMMIT=${SPMV_COMMIT:?}
R=${RESULTS:?}
RANKS=${RANKS:-4}
mkdir -p "$R"
# shellcheck source=../device_build.sh
source scripts/device_build.sh
device_mpi_env
t0=$SECONDS
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    device_build "$R/logs" spmvlab test_gpu test_mpi || exit 1
fi
timeout 300 build-device/tests/test_gpu "[gpu]~[.]" > "$R/test_gpu.txt" 2>&1
echo "test_gpu rc=$? $((SECONDS - t0)) s"; tail -3 "$R/test_gpu.txt"
grep -B3 -A15 "FAILED" "$R/test_gpu.txt" | head -40
timeout 300 $MPI -n "$RANKS" build-device/tests/test_mpi "[gpu]" > "$R/test_mpi_gpu_$RANKS.txt" 2>&1
echo "test_mpi [gpu] -n $RANKS rc=$? $((SECONDS - t0)) s"
grep -E "passed|failed" "$R/test_mpi_gpu_$RANKS.txt" | sort | uniq -c
grep -B3 -A15 "FAILED" "$R/test_mpi_gpu_$RANKS.txt" | head -40
RESULTS=$R/setup RANKS=$RANKS RUNS="${RANKS}_root ${RANKS}_auto" SKIP_BUILD=1 \
    scripts/experiments/setup_x2.sh
echo "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
GLIBC_TUNABLES=glibc.malloc.hugetlb=1 RESULTS=$R/setup_thp RANKS=$RANKS RUNS="${RANKS}_auto" \
    SKIP_BUILD=1 scripts/experiments/setup_x2.sh
echo "setup done $((SECONDS - t0)) s"
RESULTS=$R/cg400 PDE=400 RANKS=$RANKS EXCHANGES="nccl nccl_mpired cuda-ipc" SKIP_BUILD=1 \
    SKIP_TESTS=1 LIMIT_S=$((560 - (SECONDS - t0))) scripts/experiments/pde1100_x4.sh 2>&1 |
    grep -E "===|rc=|setup|status|wall"
echo "total $((SECONDS - t0)) s"
