#!/usr/bin/env bash
# Issue 31, item 4: Kreutzer's three modes plus the GPU's own, measured on the GPUs of one host
# (device kind nvidia-h100-x2; nvidia-h100-x4 when lent). Builds nothing: the lead builds
# spmvlab (e.g. scripts/device_build.sh) and passes its path.
#
#   docs/benchmarks/modes_2026-11-28/run.sh SPMVLAB OUTDIR [RANKS]
#
# SPMVLAB  the spmvlab binary (e.g. build-device/cli/spmvlab)
# OUTDIR   where the records go (created): per matrix and exchange path one dist bench JSON
#          record (modesN_MATRIX_PATH.json), its timelines (tl_modesN_MATRIX_PATH.json / .svg)
#          and its log; verify_*.log; env.txt; summary.txt (the table printed at the end)
# RANKS    MPI ranks = GPUs (default 2)
#
# What it runs, in double, CSR blocks, nnz partition, one rank per GPU:
#   1. dist verify --mode all on pde50 with --exchange host-staged and cuda-ipc: the four modes
#      against the single-process product on the GPUs (seconds);
#   2. dist bench --mode all (vector, naive, overlap, task) with --exchange host-staged and with
#      --exchange cuda-ipc on
#        pde400   gen:pde:size=400 (64M rows, 447M nonzeros): the halo is one 400x400 plane per
#                 neighbour, 160,000 entries = 0.5 % of a rank's x (what the earlier records
#                 docs/benchmarks/h100x2_2026-11-25 used);
#        powerlaw gen:powerlaw:rows=1000000,min-len=4,max-len=1000: random columns, so on 2
#                 ranks each rank needs nearly all of the other's x (halo ~500,000 entries, as
#                 many as its own x: total_halo 999,926 in the earlier records).
# Environment overrides: REPEAT (timed products per mode, default 200), PDE, PL (the inputs),
# BUDGET_S (default 290: a step that would start with fewer than 20 s left is skipped; about
# 3 min on 2 H100, pde400's generation and distribution take ~60 s per run), EXCHANGES
# (default "host-staged cuda-ipc"), GPU_FLAG (default --gpu; empty: a dry run on host ranks).
set -uo pipefail
B=${1:?usage: run.sh SPMVLAB OUTDIR [RANKS]}
OUT=${2:?usage: run.sh SPMVLAB OUTDIR [RANKS]}
N=${3:-2}
REPEAT=${REPEAT:-200}
PDE=${PDE:-gen:pde:size=400}
PL=${PL:-gen:powerlaw:rows=1000000,min-len=4,max-len=1000}
EXCHANGES=${EXCHANGES:-host-staged cuda-ipc}
G=${GPU_FLAG---gpu}
mkdir -p "$OUT" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# the device docs: NVLink multicast stays off (nothing here uses NCCL; set anyway)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
MPI="mpiexec --bind-to none -n $N"
DEADLINE=$((SECONDS + ${BUDGET_S:-290}))

step() {  # step NAME LIMIT_S CMD...: its output in $OUT/NAME.log, the last lines printed
    local name=$1 lim=$2
    shift 2
    local left=$((DEADLINE - SECONDS))
    if ((left < 20)); then
        echo "=== $name: SKIPPED (deadline)"
        return 0
    fi
    ((lim > left - 10)) && lim=$((left - 10))
    echo "=== $name"
    local t0=$SECONDS
    timeout "$lim" "$@" >"$OUT/$name.log" 2>&1
    local rc=$?
    grep -v "^ *$" "$OUT/$name.log" | tail -n "${TAIL:-7}"
    echo "rc=$rc $((SECONDS - t0)) s"
}

{
    echo "$(date -u +%FT%TZ)  spmvlab: $B  ranks: $N"
    "$B" --version 2>/dev/null | head -2
    nvidia-smi --query-gpu=index,name,driver_version,memory.total,pci.bus_id --format=csv,noheader
    nvidia-smi topo -m | head -8
    echo "cores $(nproc), $(free -g | awk '/Mem/{print $2}') GiB"
    ompi_info | grep -iE "Open MPI:|progress" | head -4
    ompi_info --parsable --all | grep -i "built_with_cuda_support:value"
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

for ex in $EXCHANGES; do
    TAIL=6 step "verify${N}_pde50_$ex" 60 $MPI $B dist verify gen:pde:size=50 $G --mode all \
        --exchange "$ex"
done

for spec in "pde400 $PDE" "powerlaw $PL"; do
    set -- $spec
    for ex in $EXCHANGES; do
        name=modes${N}_$1_$ex
        step "$name" 150 $MPI $B dist bench "$2" $G --mode all --precision double \
            --exchange "$ex" --repeat "$REPEAT" --scaling none --json-out "$OUT/$name.json" \
            --timeline "$OUT/tl_$name"
    done
done

# The table: per record and mode the median, the share of the exchange hidden, the model, and
# the time relative to vector mode (from the lines dist bench prints).
{
    echo
    printf "%-28s %-8s %10s %10s %8s %10s %9s\n" record mode "median us" "min us" hidden \
        "model us" "/ vector"
    for log in "$OUT"/modes*.log; do
        [ -e "$log" ] || continue
        awk -v rec="$(basename "$log" .log)" '
            $2 == "median" && ($1 == "vector" || $1 == "naive" || $1 == "overlap" || $1 == "task") {
                model = "-"
                for (i = 1; i < NF; ++i) if ($i == "model") model = $(i + 1)
                hidden = ""
                for (i = 1; i < NF; ++i) if ($i == "hidden") hidden = $(i + 1) " %"
                if ($1 == "vector") vec = $3
                ratio = vec > 0 ? sprintf("%.3f", $3 / vec) : "-"
                printf "%-28s %-8s %10s %10s %8s %10s %9s\n", rec, $1, $3, $6, hidden, model, ratio
            }' "$log"
    done
    echo "(median / min: wall time per SpMV, slowest rank, $REPEAT products; hidden: share of the"
    echo " exchange under computation on another lane in the last recorded product; model:"
    echo " spmv/dist/model.hpp for the same partition and exchange path, profiles ASSUMED)"
} | tee "$OUT/summary.txt"
echo "left $((DEADLINE - SECONDS)) s of ${BUDGET_S:-290}"
