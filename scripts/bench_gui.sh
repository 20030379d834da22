#!/usr/bin/env bash
# Benchmarks (not tests) of the explorer.
#
#   scripts/bench_gui.sh [--rows N] [--per-row K] [--repeat R]
#     how long the explorer takes to open and draw a 1M-row, 10M-nonzero matrix (pattern
#     raster + row-length histogram), in the real window (offscreen) and for the Qt-free parts
#     alone. The matrix file (~335 MB) is written once to /tmp/spmvlab_bench_1M_10M.mtx.
#     Builds bench_gui and bench_viz in ${SPMV_BUILD_DIR:-build-gui}. docs/benchmarks/gui.md.
#
#   scripts/bench_gui.sh --bar [--spec SPEC] [--repeat R] [--views "v1 v2 ..."] [--out DIR]
#     issue 34's bar: for every view, `spmvlab-gui --view V --generate SPEC --size 1280x720
#     --screenshot` as its own process under /usr/bin/time -v (start, generate, the view's
#     analyses, the picture), R times; the best wall time and that run's peak resident memory
#     are checked against SPMV_BAR_SECONDS (10) and SPMV_BAR_MB (2000, i.e. 2 GB). Default SPEC:
#     powerlaw:rows=2430000 (10,013,742 nonzeros, rows 1..500 long, P(l) ~ l^-2). Writes
#     DIR/results.md (a Markdown table), DIR/results.tsv, the screenshots and each run's job
#     times (SPMVLAB_JOB_TIMES=1); exit 1 when a view misses the bar. Uses the binary in
#     ${SPMV_BUILD_DIR:-build} (built only when missing). The timing view's CPU run and the
#     solver's CG are measurements the user starts: they are timed too, and reported as such.
#     Results committed: docs/benchmarks/gui_timing_2026-11-28/.
set -euo pipefail
cd "$(dirname "$0")/.."
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/spmvlab-xdg}
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

if [[ "${1:-}" == "--bar" ]]; then
    shift
    spec=powerlaw:rows=2430000
    repeat=3
    views="matrix pattern reorder histogram construction waste coalescing memory sweep timing model advisor solver distribution warps"
    out=/tmp/spmvlab_bench_bar
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --spec) spec=$2; shift 2 ;;
            --repeat) repeat=$2; shift 2 ;;
            --views) views=$2; shift 2 ;;
            --out) out=$2; shift 2 ;;
            *) echo "bench_gui.sh --bar: unknown option $1" >&2; exit 2 ;;
        esac
    done
    build=${SPMV_BUILD_DIR:-build}
    exe=$build/gui/spmvlab-gui
    if [[ ! -x "$exe" ]]; then
        cmake --build "$build" -j"$(nproc)" --target spmv_gui
    fi
    [[ -x /usr/bin/time ]] || { echo "bench_gui.sh --bar needs /usr/bin/time (GNU time)" >&2; exit 2; }
    bar_s=${SPMV_BAR_SECONDS:-10}
    bar_mb=${SPMV_BAR_MB:-2000}
    mkdir -p "$out"
    echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo -dirty)," \
         "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
         "load before: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/machine.txt"
    echo "spec $spec, best of $repeat, bar: <= ${bar_s} s and <= ${bar_mb} MB peak RSS" | tee -a "$out/machine.txt"
    printf 'view\tbest_s\tpeak_mb_of_best\tall_runs_s\tall_runs_mb\tload_1min\tverdict\n' > "$out/results.tsv"
    failed=0
    for v in $views; do
        best=""; best_mb=""; runs=""; mbs=""; load=""
        for r in $(seq 1 "$repeat"); do
            load="$load$(cut -d' ' -f1 /proc/loadavg) "
            SPMVLAB_JOB_TIMES=1 /usr/bin/time -v -o "$out/time_${v}_$r.txt" \
                "$exe" --view "$v" --generate "$spec" --size 1280x720 \
                --screenshot "$out/$v.png" > "$out/log_${v}_$r.txt" 2>&1 || true
            s=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); x=0; for(i=1;i<=n;i++) x=x*60+t[i]; print x}' "$out/time_${v}_$r.txt")
            mb=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$out/time_${v}_$r.txt")
            runs="$runs$s "; mbs="$mbs$mb "
            if [[ -z "$best" ]] || awk -v a="$s" -v b="$best" 'BEGIN{exit !(a<b)}'; then
                best=$s; best_mb=$mb
            fi
        done
        verdict=ok
        if awk -v a="$best" -v b="$bar_s" 'BEGIN{exit !(a>b)}' || (( best_mb > bar_mb )); then
            verdict=MISSED; failed=$((failed + 1))
        fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$best" "$best_mb" "${runs% }" "${mbs% }" "${load% }" "$verdict" \
            | tee -a "$out/results.tsv"
    done
    {
        echo "| view | best wall [s] | peak RSS of that run [MB] | all runs [s] | all runs [MB] | 1-min load before each run | bar |"
        echo "| --- | ---: | ---: | --- | --- | --- | --- |"
        tail -n +2 "$out/results.tsv" | awk -F'\t' '{printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7}'
    } > "$out/results.md"
    echo "results: $out/results.md; $failed view(s) missed the bar"
    exit $(( failed > 0 ? 1 : 0 ))
fi

build=${SPMV_BUILD_DIR:-build-gui}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMV_BUILD_GUI=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target bench_gui bench_viz
echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/gui/bench_viz" "$@"
"$build/gui/bench_gui" "$@" 2>&1 | grep -v propagateSizeHints
