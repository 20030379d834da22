#!/usr/bin/env bash
# compute-sanitizer over the GPU tests, on the machine with the GPU (through the device tool,
# carrying .deps; see scripts/device_check.sh for how .deps is made):
#
#   scripts/gpu_sanitize.sh [build-dir]    summary.txt and sanitize-logs.tar.gz go to $OUT or
#                                          <build-dir>/sanitize
#
# Builds test_gpu (Release, sm_90, with -lineinfo so reports name source lines) and runs the
# four tools of compute-sanitizer on it, one job per tool and test source file, several at a
# time (they share the GPU), over every [gpu] test case except
#   [bench]  timing tests: the tools slow kernels 10-100x, the timings mean nothing there;
#   [oom]    the deliberate out-of-memory test: its failing cudaMalloc is what it checks, and
#            memcheck reports every failing CUDA API call as an error;
#   [api-error]  likewise a deliberately failing call (HostPin registering memory twice);
#   [.]      hidden (manual) cases.
# Tools: memcheck (out-of-bounds and misaligned accesses, leaks: --leak-check full), racecheck
# (shared-memory hazards), initcheck (reads of device memory never written), synccheck (invalid
# __syncthreads / warp-synchronous use). Each exits 42 on any report (--error-exitcode), and
# the script exits non-zero when any tool reported or timed out. Then memcheck runs the CLI's
# GPU paths that the test binary does not: `spmvlab verify --gpu` (every kernel variant and
# cuSPARSE baseline, through the CLI) and `spmvlab dist verify --gpu` (the distributed layer's
# GPU halo path, all three modes, on two MPI ranks sharing the GPU when mpirun is there).
# Environment: SANITIZE_FILTER (Catch2 test spec added to each file's), SANITIZE_TIMEOUT
# (seconds per job, 420), SANITIZE_DEADLINE (seconds from the start after which no job runs,
# so that the summary is always written), SANITIZE_JOBS (jobs at a time, 12), SANITIZE_TOOLS (default
# "memcheck racecheck initcheck synccheck"), SANITIZE_FILES (test files, default all of
# tests/gpu), SANITIZE_SPLIT (files run one test case per job).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-device}
logs=${OUT:-$build/sanitize}
mkdir -p "$logs"
prefix="$PWD/.deps/catch2/usr;$PWD/.deps/cli11/usr;$PWD/.deps/json/usr"
filter=${SANITIZE_FILTER:-~[bench]~[oom]~[api-error]~[.]}
limit=${SANITIZE_TIMEOUT:-420}
tools=${SANITIZE_TOOLS:-memcheck racecheck initcheck synccheck}
t0=$SECONDS
{
    nvidia-smi --query-gpu=name,driver_version,memory.total,ecc.mode.current --format=csv,noheader
    nvcc --version | tail -n 1
    compute-sanitizer --version | head -n 2 | tail -n 1
    echo "commit ${SPMV_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}"
    echo "date $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "filter $filter"
} >"$logs/environment.txt" 2>&1
cat "$logs/environment.txt"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMV_BUILD_GUI=OFF \
    -DSPMV_BUILD_TUTORIALS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 "-DCMAKE_CUDA_FLAGS=-lineinfo" \
    "-DCMAKE_PREFIX_PATH=$prefix" >"$logs/configure.log" 2>&1 ||
    { tail -30 "$logs/configure.log"; exit 1; }
cmake --build "$build" -j"$(nproc)" --target test_gpu spmvlab >"$logs/build.log" 2>&1 ||
    { grep -B5 -A20 "error" "$logs/build.log" | head -80; exit 1; }
echo "build $((SECONDS - t0)) s"
bin="$build/tests/test_gpu"
"$bin" "$filter" --list-test-names-only 2>/dev/null | grep -c . | sed 's/^/test cases: /' |
    tee -a "$logs/environment.txt"

raw=$logs/raw
mkdir -p "$raw"
# One job per (tool, test source file) -- Catch2's -# tags each case with its file name --,
# run SANITIZE_JOBS at a time: the slow files (every variant on every test matrix) no longer
# hold up the rest, and the tools share the GPU and the cores.
run_one() {  # run_one "TOOL<tab>FILE<tab>INDEX<tab>TEST NAME (empty: the whole file)"
    local tool file index name s=$SECONDS extra="" spec
    IFS=$'\t' read -r tool file index name <<<"$1"
    case $tool in
        memcheck) extra="--leak-check full" ;;
        # cuSPARSE (the baseline, NVIDIA's code) is left out of racecheck: its csrmv_v3 kernel
        # reports warp-level write-after-write hazards on shared memory of its own
        racecheck) extra="--racecheck-report all --kernel-name-exclude kns=cusparse" ;;
    esac
    spec="[#$file]$filter"
    # one test case: its name, with Catch2's special characters escaped
    [ -n "$name" ] && spec=$(printf '%s' "$name" | sed 's/\\/\\\\/g; s/\[/\\[/g; s/,/\\,/g')
    local log="$raw/$tool.$file.$index.log"
    # a job never runs past the deadline: started late, it gets what is left; none left, it
    # is recorded as not run
    local left=$((deadline - $(date +%s)))
    if ((left < 20)); then
        printf '%s %s%s rc=not-run (deadline)\n' "$tool" "$file" "${name:+ \"$name\"}" \
            >"$raw/$tool.$file.$index.status"
        return
    fi
    ((left < limit)) || left=$limit
    # shellcheck disable=SC2086
    timeout "$left" compute-sanitizer --tool "$tool" $extra --print-limit 50 --error-exitcode 42 \
        "$bin" "$spec" -# >"$log" 2>&1
    local rc=$?
    grep -q "No test cases matched" "$log" && rc=none
    printf '%s %s%s rc=%s %s s %s\n' "$tool" "$file" "${name:+ \"$name\"}" "$rc" "$((SECONDS - s))" \
        "$(grep -E 'ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY|^test cases|^All tests passed' \
        "$log" | tr -s ' ' | tr '\n' ' ')" >"$raw/$tool.$file.$index.status"
}
export -f run_one
deadline=$(($(date +%s) + ${SANITIZE_DEADLINE:-100000} - SECONDS))  # since the script started
export bin filter limit raw deadline
files=${SANITIZE_FILES:-$(cd tests/gpu && ls test_*.cpp | sed 's/\.cpp$//')}
# files whose every test case is a job of its own (they run every variant on every test
# matrix: as one job they outlast any time limit under the tools)
split=" ${SANITIZE_SPLIT:-test_variants_gpu test_stream_policy test_solvers_gpu test_permuted_kernels_gpu} "
for tool in $tools; do
    for f in $files; do
        if [[ $split == *" $f "* ]]; then
            k=0
            "$bin" "[#$f]$filter" -# --list-test-names-only 2>/dev/null | grep . |
                while IFS= read -r name; do
                    k=$((k + 1))
                    printf '0\t%s\t%s\t%s\t%s\n' "$tool" "$f" "$k" "$name"
                done
        else
            printf '1\t%s\t%s\t0\t\n' "$tool" "$f"
        fi
    done
done | sort -s -t$'\t' -k1,1 | cut -f2- >"$raw/jobs.txt"  # the split (slow) ones first
echo "jobs: $(wc -l <"$raw/jobs.txt")"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cli=$build/cli/spmvlab
cli_names=()
for run in "verify --gpu gen:powerlaw:rows=3000,seed=5" "dist verify --gpu gen:pde:size=16"; do
    name=cli_$(echo "$run" | cut -d' ' -f1-2 | tr ' -' '__')
    launcher=()
    # the distributed run on two ranks sharing the GPU: a real halo exchange
    [[ $run == dist* ]] && command -v mpirun >/dev/null && launcher=(mpirun -n 2 --oversubscribe)
    s=$SECONDS
    # shellcheck disable=SC2086
    timeout "$limit" "${launcher[@]}" compute-sanitizer --tool memcheck --leak-check full \
        --print-limit 50 --error-exitcode 42 "$cli" $run >"$raw/$name.log" 2>&1
    echo "memcheck spmvlab $run: rc=$? $((SECONDS - s)) s: $(grep -E 'ERROR SUMMARY|LEAK SUMMARY' \
        "$raw/$name.log" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')" >"$raw/$name.status"
    cli_names+=("$name")
done
xargs -P "${SANITIZE_JOBS:-12}" -d '\n' -n 1 bash -c 'run_one "$1"' _ <"$raw/jobs.txt"
rc=0
cp "$logs/environment.txt" "$logs/summary.txt"
while IFS=$'\t' read -r tool f index name; do
    line=$(cat "$raw/$tool.$f.$index.status" 2>/dev/null || echo "$tool $f $name rc=missing")
    echo "$line" >>"$logs/summary.txt"
    case "$line" in *" rc=0 "*|*" rc=none "*) ;; *) rc=1 ;; esac
done <"$raw/jobs.txt"
for name in "${cli_names[@]}"; do
    cat "$raw/$name.status" >>"$logs/summary.txt"
    grep -q ": rc=0 " "$raw/$name.status" || rc=1
done
echo "total $((SECONDS - t0)) s" >>"$logs/summary.txt"
cat "$logs/summary.txt"
# one archive instead of a hundred logs (the device tool returns a few files)
tar czf "$logs/sanitize-logs.tar.gz" -C "$logs" raw configure.log build.log && rm -rf "$raw"
exit $rc
