#!/usr/bin/env bash
# Issue 37 on any card: the records the per-format model is fitted on and validated against,
# and the comparison with cuSPARSE in the same run. The parts and their inputs are those of
# docs/benchmarks/h100_2026-11-26/run.sh and h200_calib_2026-11-28/run.sh, so that the cards
# compare one to one. One difference: every variant the build has is timed (bench's default
# --formats all), so csr_tiled (session 24) and all five cuSPARSE baselines are in. Those two
# scripts name their lists and stay as the records of what they ran.
#
#   SPMV_COMMIT=<sha> OUT=<dir> bash scripts/experiments/card_records.sh PART...
#
# PART:
#   a, b      .mtx/a and .mtx/b: the first 50 files of ../shared/matrices in name order (LC_ALL=C),
#             and the rest (6.4 MB and 27.6 MB). A device call carries 64 MiB with the tree, so
#             carry them xz-compressed: `tar cJf .mtx/b.tar.xz -C .mtx b` (4.3 MB; a: 1.5 MB); a
#             part whose folder is missing unpacks .mtx/<part>.tar.xz when it is there
#   large     the six held-out generated matrices of scripts/bench_gpu.sh
#   fitlarge  the nine generated matrices the model is fitted on beside part a
#   gpu       the [gpu] Catch suite
#   smoke     two small generated matrices: checks this batch itself in a minute
# With several GPUs the parts run at once, part i on GPU i mod #GPUs (CUDA_VISIBLE_DEVICES:
# each part times kernels on its own GPU only). With one GPU they run one after the other.
# One device call has 10 minutes, so on one GPU give one or two parts per call.
# FORMATS (default all): the --formats of the bench parts, e.g. only the own variants that were
# ever fastest on the collection plus csr_tiled and the cuSPARSE baselines, when the question is
# the comparison with cuSPARSE and the device time is short. Measured on one H200 (2026-11-29,
# docs/benchmarks/h200_collection_2026-11-29): with 20 variants, a 279 s, b 269 s, large 195 s
# (19 variants); the build 68 s. Every variant (28) takes about 1.4 times as long.
# Writes $OUT/<part>/ (gpu.csv, bench.json, bench.csv, bench.txt, bench.err). PACK=1 packs $OUT
# into one file, $OUT.tar.xz, and removes the folder: the device returns a limited number of
# files from a call, and three parts' files were more than that (session 34 lost part b's).
# Since 2026-11-30 bench.txt has a `loads` column and bench.json `launch_rules` and per result
# `matrix_loads`: the matrix-load kind each launch chose from the device's L2.
# GUARD_S=N (default: none) stops every bench of this batch N seconds after the batch started
# (SIGTERM; bench keeps the matrices it finished in bench.json.partial / bench.csv.partial), so
# that a part that runs longer than planned still returns what it measured before the device
# call's limit: give N about 60 s less than the call's timeout. Session 35 lost a call's files
# to a part that ran past the limit; session 36 ran parts b and fitlarge behind such a guard.
#
# Afterwards, on this machine, with D the committed folder:
#   spmvlab calibrate --fit $D/a/bench.json $D/fitlarge/bench.json \
#       --validate $D/b/bench.json $D/large/bench.json --matrices ../shared/matrices \
#       --gpu <profile> --max-memory 16G --table-out $D/model_fit.md --constants-out $D/constants.json
#   python3 docs/benchmarks/h200_calib_2026-11-28/own_vs_cusparse.py $D/*/bench.json
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: card_records.sh a|b|large|fitlarge|gpu|smoke ..." >&2; exit 2; }
out=${OUT:?}
export SPMV_COMMIT=${SPMV_COMMIT:?}
t0=$SECONDS
source scripts/device_build.sh
targets=(spmvlab)
for p in "$@"; do
    case $p in
        a|b|large|fitlarge|smoke) ;;
        gpu) targets+=(test_gpu) ;;
        *) echo "card_records.sh: unknown part '$p' (a, b, large, fitlarge, gpu, smoke)" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
device_build "$out/logs" "${targets[@]}" || exit 1
S=build-device/cli/spmvlab
common=(--gpu --precision both --sigma auto --max-format-mib 4096 --formats "${FORMATS:-all}")
small=(--min-time 10 --min-reps 20)
big=(--min-time 100 --min-reps 50)

inputs() {  # inputs PART: the bench arguments of a part
    case $1 in
        a|b) if [ ! -d ".mtx/$1" ] && [ -f ".mtx/$1.tar.xz" ]; then
                 tar xJf ".mtx/$1.tar.xz" -C .mtx || return 1
             fi
             [ -d ".mtx/$1" ] || { echo "card_records.sh: .mtx/$1 (or .mtx/$1.tar.xz) is missing" >&2; return 1; }
             echo "${small[*]} .mtx/$1" ;;
        large) echo "${big[*]} gen:pde:size=100 gen:pde:size=150" \
                    "gen:blocks5:block-rows=100000,blocks=8 gen:powerlaw:rows=1000000" \
                    "gen:powerlaw:rows=1000000,min-len=4,max-len=1000 gen:onefull:n=200000" ;;
        fitlarge) echo "${big[*]} gen:pde:size=80 gen:pde:size=120" \
                       "gen:blocks5:block-rows=60000,blocks=8,seed=7 gen:powerlaw:rows=500000,seed=7" \
                       "gen:powerlaw:rows=2000000,min-len=2,max-len=200,seed=7" \
                       "gen:powerlaw:rows=400000,min-len=8,max-len=2000,seed=7 gen:onefull:n=100000" \
                       "gen:banded:n=1000000,bandwidth=8,offdiags=2,seed=7" \
                       "gen:random:rows=500000,nnz-per-row=12,seed=7" ;;
        smoke) echo "${small[*]} gen:pde:size=20 gen:powerlaw:rows=20000" ;;
    esac
}

part() {  # part NAME GPU
    local name=$1 gpu=$2 dir=$out/$1
    mkdir -p "$dir"
    nvidia-smi -i "$gpu" --query-gpu=index,name,driver_version,memory.total,ecc.mode.current,clocks.max.sm,clocks.max.memory \
        --format=csv > "$dir/gpu.csv" 2>&1
    if [ "$name" = gpu ]; then
        CUDA_VISIBLE_DEVICES=$gpu build-device/tests/test_gpu > "$dir/test_gpu.txt" 2>&1
        echo "part gpu (GPU $gpu) rc=$? $((SECONDS - t0)) s"; tail -n 3 "$dir/test_gpu.txt"
        return
    fi
    local args
    args=$(inputs "$name") || return 1
    # shellcheck disable=SC2086  # the part's arguments are words without spaces
    CUDA_VISIBLE_DEVICES=$gpu "$S" bench "${common[@]}" $args --json-out "$dir/bench.json" \
        --csv-out "$dir/bench.csv" > "$dir/bench.txt" 2> "$dir/bench.err"
    echo "part $name (GPU $gpu) rc=$? $((SECONDS - t0)) s"; tail -n 2 "$dir/bench.err"
}

guard_pid=
if [ -n "${GUARD_S:-}" ]; then
    [[ $GUARD_S =~ ^[0-9]+$ ]] || { echo "card_records.sh: GUARD_S must be whole seconds, not '$GUARD_S'" >&2; exit 2; }
    # the sleep runs apart and the guard's TERM ends it: a sleep left behind would hold the
    # batch's stdout open, and a caller's pipe (`card_records.sh ... | tail`) would wait for it
    # until GUARD_S (session 37's first call did)
    (sleep "$((GUARD_S > SECONDS ? GUARD_S - SECONDS : 0))" >/dev/null 2>&1 &
     sleep_pid=$!
     trap 'kill "$sleep_pid" 2>/dev/null; exit 0' TERM
     wait "$sleep_pid"
     pkill -TERM -f "^$S bench" && echo "card_records.sh: GUARD_S=$GUARD_S reached, bench stopped (see bench.json.partial)") &
    guard_pid=$!
fi
gpus=$(nvidia-smi -L | grep -c '^GPU ')
[ "$gpus" -ge 1 ] || { echo "card_records.sh: no GPU" >&2; exit 1; }
parts=("$@")
part_pids=()
for ((g = 0; g < gpus && g < ${#parts[@]}; g++)); do
    (for ((i = g; i < ${#parts[@]}; i += gpus)); do part "${parts[i]}" "$g"; done) &
    part_pids+=($!)
done
wait "${part_pids[@]}"
[ -n "$guard_pid" ] && kill "$guard_pid" 2>/dev/null
echo "card_records.sh: done in $((SECONDS - t0)) s"
if [ "${PACK:-0}" = 1 ]; then
    tar cJf "$out.tar.xz" -C "$(dirname "$out")" "$(basename "$out")" && rm -rf "$out" &&
        echo "card_records.sh: packed into $out.tar.xz"
fi
