#!/usr/bin/env bash
# Fuzzes SpMV Lab's text parsers with libFuzzer; CI runs `scripts/fuzz.sh 60` after
# scripts/sanitize.sh.
#
# Builds the targets of tests/fuzz in the sanitizer tree (build-sanitize, or $SPMV_SANITIZE_DIR;
# configured by scripts/sanitize.sh: Clang 16, ASan + UBSan, every report fatal) and runs each
# target for the given seconds (default 60) as nproc parallel jobs, starting from a temporary
# copy of its seed corpus (tests/fuzz/corpus/<name>; the committed corpus is never written) and
# its dictionary. Limits per input: 10 s (-timeout) and 2 GiB resident (-rss_limit_mb).
#
# Fails when any job reports a crash, an uncaught exception, a sanitizer finding, a leak, a
# timeout or running out of memory (libFuzzer's exit code). The input that did it is saved under
# $SPMV_FUZZ_FINDINGS (default /tmp/fuzz-findings) and printed (base64) with the command that
# reproduces it, so a CI log alone is enough to get it back.
#
# Usage: scripts/fuzz.sh [seconds-per-target]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${1:-60}
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/fuzz.sh [seconds-per-target]   (a positive whole number, default 60)" >&2
  exit 2
fi
build=${SPMV_SANITIZE_DIR:-build-sanitize}
[[ "$build" = /* ]] || build=$root/$build
findings=${SPMV_FUZZ_FINDINGS:-/tmp/fuzz-findings}
jobs=$(nproc)
targets=(fuzz_matrix_market:matrix_market fuzz_generator_spec:generator_spec)

scripts/sanitize.sh --configure-only >/dev/null
cmake --build "$build" -j"$jobs" --target fuzz_matrix_market fuzz_generator_spec
mkdir -p "$findings"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$root/tests/fuzz/lsan.supp:print_suppressions=0"

failed=()
for pair in "${targets[@]}"; do
  target=${pair%%:*}
  name=${pair#*:}
  exe=$build/tests/fuzz/$target
  work=$(mktemp -d "${TMPDIR:-/tmp}/spmvlab-$target.XXXXXX")
  cp -r "tests/fuzz/corpus/$name" "$work/corpus"
  touch "$work/started"
  echo "spmvlab fuzz: $target for $seconds s on $jobs jobs (work dir $work)"
  rc=0
  # -jobs writes each job's output to fuzz-<n>.log in the current directory, and the parent
  # copies it to stderr when the job ends: all of it goes to $work/fuzz.log.
  (cd "$work" && "$exe" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
       -jobs="$jobs" -workers="$jobs" -dict="$root/tests/fuzz/$name.dict" \
       -artifact_prefix="$findings/$target-" -print_final_stats=1 corpus) \
      >"$work/fuzz.log" 2>&1 || rc=$?
  # Per job: "stat::average_exec_per_sec: N"; the last status line gives coverage and corpus.
  rate=$(awk '/^stat::average_exec_per_sec:/ {s += $2} END {print s + 0}' "$work/fuzz.log")
  runs=$(awk '/^stat::number_of_executed_units:/ {s += $2} END {print s + 0}' "$work/fuzz.log")
  last=$(grep -E '^#[0-9]+' "$work/fuzz.log" | tail -n 1 || true)
  echo "spmvlab fuzz: $target: exit $rc, $runs inputs, $rate exec/s over all jobs; last: $last"
  if [ "$rc" != 0 ]; then
    failed+=("$target")
    echo "=================== $target: first report (full log: $work/fuzz.log)"
    report='==[0-9]+==ERROR|runtime error:|fuzz check failed|ERROR: libFuzzer|terminate called'
    first=$(grep -n -m 1 -E "$report" "$work/fuzz.log" | cut -d: -f1 || true)
    if [ -n "$first" ]; then
      sed -n "$((first > 5 ? first - 5 : 1)),$((first + 80))p" "$work/fuzz.log"
    else
      tail -n 80 "$work/fuzz.log"
    fi
    while IFS= read -r input; do
      echo "=================== failing input: $input ($(stat -c %s "$input") bytes)"
      [ "$(stat -c %s "$input")" -le 4096 ] && base64 "$input"
      echo "reproduce: ASAN_OPTIONS=$ASAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS $exe $input"
    done < <(find "$findings" -maxdepth 1 -newer "$work/started" -type f \
                  \( -name "$target-crash-*" -o -name "$target-leak-*" \
                     -o -name "$target-timeout-*" -o -name "$target-oom-*" \) | sort)
  else
    rm -rf "$work"
  fi
done

if ((${#failed[@]})); then
  echo "spmvlab fuzz: FAILED: ${failed[*]} (inputs under $findings)" >&2
  exit 1
fi
echo "spmvlab fuzz: passed (${#targets[@]} targets, $seconds s each)"
