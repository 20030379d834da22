#!/usr/bin/env bash
# Sanitizer run of SpMV Lab's CPU test suite; CI runs it after the normal tests (scripts/test.sh).
#
# Builds a separate tree (build-sanitize, or $SPMV_SANITIZE_DIR) with Clang 16, AddressSanitizer
# (+ LeakSanitizer) and UndefinedBehaviorSanitizer, -fno-sanitize-recover=all so that every report
# ends the process, and libstdc++'s bounds checks (_GLIBCXX_ASSERTIONS). CUDA and the GUI are off
# (no GPU on the CI machine; Qt is not built with ASan: the GUI tests run in the normal build),
# MPI is on when found, and the libFuzzer targets of tests/fuzz are built too: ctest runs each
# over its seed corpus, scripts/fuzz.sh fuzzes them. Then ctest runs the whole suite.
#
# It fails when a test fails OR when any sanitizer wrote a report. Reports go to files
# ($build/sanitizer-reports, printed at the end), not to the tests' output: a test that expects
# a child process (spmvlab, mpiexec) to fail would otherwise take a sanitizer abort in that
# child for the failure it expected, and pass.
#
# Why Clang 16: Debian 12's default clang 14 cannot compile libstdc++ 12's <source_location>,
# and GCC has no libFuzzer. scripts/deps.sh installs clang-16 and libclang-rt-16-dev if missing.
#
# MPI: everything that runs under mpiexec or calls MPI_Init (test_mpi on 1 to 4 ranks with
# --oversubscribe, `spmvlab dist` in the "cli dist:" tests, tutorial 08) runs under ASan too.
# Open MPI 4.1 keeps ~120 KB that it allocates in MPI_Init/MPI_Finalize and on its progress
# thread until exit; tests/fuzz/lsan.supp suppresses exactly those (allocation stacks entirely
# inside Open MPI; see the comment there). Its libraries have no frame pointers, so those stacks
# are only complete with fast_unwind_on_malloc=0, which slows every allocation 4-5 times (a
# plot test: 208 s against 46 s). So only the tests whose processes call MPI_Init get it: CMake
# gives them SPMV_MPI_TEST_ENVIRONMENT (the top CMakeLists.txt), which appends it to
# ASAN_OPTIONS; every other test keeps the fast unwinder. An MPI test without it is not checked
# less: its Open MPI leaks then come with cut stacks that no suppression matches, and it fails.
#
# Not run here: "cli:bench records a format that runs out of memory ..." runs spmvlab under
# `ulimit -v 3000000`, and ASan cannot start in a 3 GB address space (it reserves terabytes of
# virtual memory for its shadow). The normal test run (scripts/test.sh) covers it.
#
# Usage: scripts/sanitize.sh [--configure-only]   (scripts/fuzz.sh configures through this)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${SPMV_SANITIZE_DIR:-build-sanitize}
[[ "$build" = /* ]] || build=$root/$build
cxx=clang++-16

rt_status=$(dpkg-query -W -f='${Status}' libclang-rt-16-dev 2>/dev/null || true)
if ! command -v "$cxx" >/dev/null || [ "$rt_status" != "install ok installed" ]; then
  scripts/deps.sh clang-16 libclang-rt-16-dev >/dev/null
fi

san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# Debug (asserts on) at -O1, which the ASan documentation suggests for usable speed, with line
# tables only (-gline-tables-only: every report keeps its file:line stacks). Full -g made
# spmvlab 160 MB, and each process that starts MPI spent about 1 s more at exit while
# llvm-symbolizer parsed that DWARF for Open MPI's suppressed leaks.
cmake -S . -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only \
  -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$san -O1 -D_GLIBCXX_ASSERTIONS" \
  -DCMAKE_EXE_LINKER_FLAGS="$san" \
  -DCMAKE_SHARED_LINKER_FLAGS="$san" \
  -DSPMV_ENABLE_CUDA=OFF -DSPMV_BUILD_GUI=OFF -DSPMV_ENABLE_MPI=ON \
  -DSPMV_BUILD_TESTS=ON -DSPMV_BUILD_FUZZERS=ON \
  -DSPMV_BUILD_PYTHON=OFF  # an ASan extension module cannot load into an uninstrumented python3
[ "${1:-}" = --configure-only ] && exit 0

reports=$build/sanitizer-reports
rm -rf "$reports" && mkdir -p "$reports"
# The same options for the build (catch_discover_tests runs every test binary) and the tests.
# One log_path for both: in a combined ASan+UBSan binary the last one parsed wins anyway.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:fast_unwind_on_malloc=1"
ASAN_OPTIONS+=":log_path=$reports/report"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/report"
export LSAN_OPTIONS="suppressions=$root/tests/fuzz/lsan.supp:print_suppressions=0"
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/spmvlab-xdg}
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

# Prints every sanitizer report; returns 1 if there was one.
show_reports() {
  local found=0 f
  for f in "$reports"/*; do
    [ -e "$f" ] || continue
    found=1
    echo "=================== sanitizer report $f"
    cat "$f"
  done
  return "$found"
}

status=0
start=$SECONDS
cmake --build "$build" -j"$(nproc)" || status=$?
echo "spmvlab sanitize: build took $((SECONDS - start)) s"
if [ "$status" = 0 ]; then
  start=$SECONDS
  (cd "$build" && ctest --output-on-failure -j"$(nproc)" \
                     -E 'runs out of memory and keeps the others') || status=$?
  echo "spmvlab sanitize: tests took $((SECONDS - start)) s"
fi
if ! show_reports; then
  echo "spmvlab sanitize: FAILED: the sanitizer reports above (see $reports)" >&2
  exit 1
fi
if [ "$status" != 0 ]; then
  echo "spmvlab sanitize: FAILED (exit $status)" >&2
  exit "$status"
fi
echo "spmvlab sanitize: passed, no sanitizer reports"
