#!/usr/bin/env bash
# Issue 36's setup bar, measured where 2 GPUs are lent (RANKS=4 on 4): dist solve of
# gen:pde:size=$PDE (sell, CG to 1e-10, task mode) with --load root (rank 0 generates the whole
# matrix and sends each rank its rows: the single-root setup) and --load auto (each rank
# generates its rows), on 1 and RANKS GPUs; each run prints and records its setup per phase
# (the slowest rank's input and build, cli/src/dist/dist_cli.hpp SetupClock) and the whole run's
# wall time. From the repository root with .deps carried and SPMV_COMMIT set; results under
# $RESULTS (not $OUT: the device tool's own folder variable). RUNS: the runs as "RANKS LOAD"
# words, e.g. RUNS="4_root 4_auto" (underscores; default: 1 auto, RANKS root, RANKS auto).
set -uo pipefail
export SPMV_COMMIT=${SPMV_COMMIT:?}
R=${RESULTS:?}
RANKS=${RANKS:-2}
PDE=${PDE:-400}
mkdir -p "$R"
# shellcheck source=../device_build.sh
source scripts/device_build.sh
device_mpi_env
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    device_build "$R/logs" spmvlab || exit 1
fi
S=build-device/cli/spmvlab
runs=${RUNS:-"1_auto ${RANKS}_root ${RANKS}_auto"}
for run in $runs; do
    run=${run/_/ }
    set -- $run
    s=$(date +%s.%N)
    timeout 300 $MPI -n "$1" $S dist solve gen:pde:size=$PDE --gpu --format sell --mode task \
        --tol 1e-10 --load "$2" --json-out "$R/solve${PDE}_$1_$2.json" > "$R/solve${PDE}_$1_$2.txt" 2>&1
    rc=$?
    e=$(date +%s.%N)
    echo "solve pde$PDE ranks $1 load $2 rc=$rc wall $(awk -v a="$s" -v b="$e" 'BEGIN{printf "%.1f", b-a}') s"
    grep -E "setup|status" "$R/solve${PDE}_$1_$2.txt"
done
