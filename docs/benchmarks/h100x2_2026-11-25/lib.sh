# Sourced by run_a.sh and run_b.sh (issue 23, device kind nvidia-h100-x2): the environment,
# a deadline, and step(), which runs one command with a time limit under that deadline, keeps
# its whole output in $R/NAME.log and prints its last lines.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
source scripts/device_build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# the device docs: NVLink multicast stays off (nothing here uses NCCL; set anyway)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
OUT=${OUT:-/tmp/x2_out}
R=$OUT/records
mkdir -p "$R"
DEADLINE=$((SECONDS + ${BUDGET_S:-540}))
B=${SPMVLAB:-build-device/cli/spmvlab}
G=${GPU_FLAG---gpu}  # a dry run of the scripts on a machine without GPUs: GPU_FLAG= SPMVLAB=...
MPI="mpiexec --bind-to none -n"

step() {  # step NAME LIMIT_S CMD...: skipped when fewer than 20 s are left
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
    timeout "$lim" "$@" >"$R/$name.log" 2>&1
    local rc=$?
    grep -v "^ *$" "$R/$name.log" | tail -n "${TAIL:-6}"
    echo "rc=$rc $((SECONDS - t0)) s"
}

# bench NAME RANKS INPUT ARGS... / solve NAME RANKS INPUT METHOD ARGS...: one dist bench or
# dist solve, with its JSON record (and for bench its timelines) under $R
bench() {  # bench NAME RANKS INPUT ARGS...
    local name=$1 n=$2 in=$3
    shift 3
    TAIL=5 step "$name" 200 $MPI "$n" $B dist bench "$in" $G --json-out "$R/$name.json" \
        --timeline "$R/tl_$name" "$@"
}
solve() {  # solve NAME RANKS INPUT METHOD ARGS...
    local name=$1 n=$2 in=$3 m=$4
    shift 4
    TAIL=2 step "$name" 200 $MPI "$n" $B dist solve "$in" $G --method "$m" \
        --json-out "$R/$name.json" "$@"
}

finish() {
    tar czf "$OUT/records.tgz" -C "$OUT" records
    echo "left $((DEADLINE - SECONDS)) s"
}
