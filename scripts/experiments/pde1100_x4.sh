#!/usr/bin/env bash
# Issue 36, "the measured run": CG to 1e-10 on gen:pde:size=$PDE (pde1100: 1,331,000,000 rows,
# 9,308,300,000 nonzeros, larger than one GPU's memory) on RANKS GPUs of one host (nvidia-h200-x4),
# every rank generating its own rows (--load auto), SELL-C-sigma blocks in row chunks (2 per
# rank: 2.3 billion nonzeros each), task mode; one run per exchange of EXCHANGES:
#   nccl          halo by ncclSend/ncclRecv, CG's dot products by ncclAllReduce on the GPUs
#   nccl_mpired   the same halo, the dot products by MPI_Allreduce of host scalars
#   cuda-ipc      halo by CUDA IPC copies (MPI tokens), MPI reductions
# Run on the device machine from the repository root:
#
#   RESULTS=$OUT/pde1100 scripts/experiments/pde1100_x4.sh
#
# Each run: RESULTS/solve_<exchange>.json (the record: iterations, times, setup per phase),
# .log, .wall_ms, and the GPUs' memory sampled every 2 s (gpu_mem_<exchange>.csv). With
# /usr/bin/time present, every rank's peak host memory is in the log ("rank peak ... KB").
# A run that would pass the call's limit is cut by `timeout` (LIMIT_S, default 560 s from the
# script's start for everything), and says so.
# Environment: RESULTS (out/pde1100), RANKS (4), PDE (1100), FORMAT (sell), MODE (task),
# EXCHANGES (nccl), SKIP_BUILD=1, SKIP_TESTS=1, LIMIT_S (560), EXTRA (more dist solve options).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
RESULTS=${RESULTS:-out/pde1100}
RANKS=${RANKS:-4}
PDE=${PDE:-1100}
FORMAT=${FORMAT:-sell}
MODE=${MODE:-task}
EXCHANGES=${EXCHANGES:-nccl}
LIMIT_S=${LIMIT_S:-560}
mkdir -p "$RESULTS" || exit 1
# shellcheck source=../device_build.sh
source scripts/device_build.sh
device_mpi_env

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    device_build "$RESULTS/build" spmvlab test_gpu || exit 1
fi
B=build-device/cli/spmvlab
{
    echo "$(date -u +%FT%TZ)  ranks: $RANKS  matrix: gen:pde:size=$PDE  format: $FORMAT  mode: $MODE"
    echo "commit: ${SPMV_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
    "$B" --version 2>/dev/null | head -2
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
    nproc
    free -g
    grep -E "SpMV Lab: NCCL" "$RESULTS/build/configure.log" 2>/dev/null
} >"$RESULTS/env.txt" 2>&1
cat "$RESULTS/env.txt"

if [ "${SKIP_TESTS:-0}" != 1 ]; then
    echo "=== test_gpu [nccl],[vector_ops]"
    timeout 300 build-device/tests/test_gpu "[nccl],[vector_ops]" >"$RESULTS/tests_gpu.txt" 2>&1
    echo "rc=$?"
    tail -n 3 "$RESULTS/tests_gpu.txt"
fi

TIME=()
[ -x /usr/bin/time ] && TIME=(/usr/bin/time -f "rank peak %M KB, %e s, %U s user, %S s system")
for EX in $EXCHANGES; do
    ex=${EX%_mpired}
    red=device
    [ "$ex" = nccl ] || red=mpi
    [ "$EX" = nccl_mpired ] && red=mpi
    left=$((LIMIT_S - SECONDS))
    if [ "$left" -lt 120 ]; then
        echo "=== solve $EX: not run, $left s left of LIMIT_S=$LIMIT_S"
        continue
    fi
    echo "=== solve $EX (exchange $ex, reductions $red), at most $left s"
    nvidia-smi --query-gpu=timestamp,index,memory.used --format=csv,noheader -lms 2000 \
        >"$RESULTS/gpu_mem_$EX.csv" 2>/dev/null &
    smi=$!
    t0=$(date +%s.%N)
    SPMV_DIST_REDUCTIONS=$red timeout "$left" $MPI -n "$RANKS" -x SPMV_DIST_REDUCTIONS \
        "${TIME[@]}" "$B" dist solve "gen:pde:size=$PDE" --gpu --format "$FORMAT" --mode "$MODE" \
        --method cg --tol 1e-10 --exchange "$ex" ${EXTRA:-} --json-out "$RESULTS/solve_$EX.json" \
        >"$RESULTS/solve_$EX.log" 2>&1
    echo "rc=$? (124: cut by the limit)"
    kill "$smi" 2>/dev/null
    python3 -c "import sys; print(round((float(sys.argv[2]) - float(sys.argv[1])) * 1e3))" \
        "$t0" "$(date +%s.%N)" >"$RESULTS/solve_$EX.wall_ms"
    tail -n 12 "$RESULTS/solve_$EX.log"
    echo "wall $(cat "$RESULTS/solve_$EX.wall_ms") ms"
done
