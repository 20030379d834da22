#!/usr/bin/env bash
# Session 21 device batch (2 x H200; issue 36), from the repository root with .deps carried and
# SPMV_COMMIT set; results under $RESULTS (not $OUT: the device tool's own folder variable):
#   1. test_gpu "[gpu]~[.]" (the whole GPU suite: the new distributed CG device steps included);
#   2. test_mpi "[gpu]" on 1 and 2 ranks (row chunks on GPU ranks, NCCL, per-rank input);
#   3. per-rank input on GPU ranks: dist verify of a pde100 Matrix Market file and of
#      gen:pde:size=150 in every mode;
#   4. setup: dist solve gen:pde:size=400 (sell, CG to 1e-10, task mode) on 2 GPUs with --load
#      root (rank 0 generates and sends) and --load auto (each rank generates its rows): the
#      whole run's wall time, and the same on 1 GPU.
set -uo pipefail
export SPMV_COMMIT=${SPMV_COMMIT:?}
R=${RESULTS:?}
mkdir -p "$R"
# shellcheck source=../device_build.sh
source scripts/device_build.sh
device_mpi_env
t0=$SECONDS
device_build "$R/logs" spmvlab test_gpu test_mpi || exit 1
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv > "$R/gpu.txt"
timeout 300 build-device/tests/test_gpu "[gpu]~[.]" > "$R/test_gpu.txt" 2>&1
echo "test_gpu rc=$? $((SECONDS - t0)) s"; tail -3 "$R/test_gpu.txt"
grep -B3 -A15 "FAILED" "$R/test_gpu.txt" | head -40
for n in 1 2; do
    timeout 300 $MPI -n $n build-device/tests/test_mpi "[gpu]" > "$R/test_mpi_gpu_$n.txt" 2>&1
    echo "test_mpi [gpu] -n $n rc=$? $((SECONDS - t0)) s"
    grep -E "passed|failed" "$R/test_mpi_gpu_$n.txt" | sort | uniq -c
    grep -B3 -A15 "FAILED" "$R/test_mpi_gpu_$n.txt" | head -40
done
S=build-device/cli/spmvlab
$S generate pde --size 100 -o "$R/pde100.mtx" > /dev/null
for input in "$R/pde100.mtx" gen:pde:size=150; do
    tag=$(basename "$input" | tr ':=' '__')
    timeout 200 $MPI -n 2 $S dist verify "$input" --gpu --format sell --mode all \
        --json-out "$R/verify_$tag.json" > "$R/verify_$tag.txt" 2>&1
    echo "dist verify $input rc=$?"; cat "$R/verify_$tag.txt"
done
rm -f "$R/pde100.mtx"
for run in "1 auto" "2 root" "2 auto"; do
    set -- $run
    s=$(date +%s.%N)
    timeout 300 $MPI -n "$1" $S dist solve gen:pde:size=400 --gpu --format sell --mode task \
        --tol 1e-10 --load "$2" --json-out "$R/solve400_$1_$2.json" > "$R/solve400_$1_$2.txt" 2>&1
    rc=$?
    e=$(date +%s.%N)
    echo "solve pde400 ranks $1 load $2 rc=$rc wall $(awk -v a="$s" -v b="$e" 'BEGIN{printf "%.1f", b-a}') s"
    tail -3 "$R/solve400_$1_$2.txt"
done
echo "total $((SECONDS - t0)) s"
