#!/usr/bin/env bash
# docs/adding_a_format.md, checked: every format of lib/include/spmv/formats/list.hpp has its own
# files (header, build, story with its registry entry, tests), and a format's name appears in at
# most 3 shared code files (outside its own files, the format folders, tests, tutorials and docs).
# The newest format, BiJAD, is the bar (issue 33); the counts of the others are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
limit=3
names=$(sed -n 's/^ *X(\([a-z_0-9]*\), *[A-Za-z]*) *\\\{0,1\}$/\1/p' lib/include/spmv/formats/list.hpp)
[ -n "$names" ] || { echo "format units: no X(name, Type) lines in list.hpp" >&2; exit 1; }
count=0
for n in $names; do
  count=$((count + 1))
  for f in "lib/include/spmv/formats/$n.hpp" "lib/src/formats/$n.cpp" \
           "lib/src/formats/${n}_story.cpp" "tests/formats/test_$n.cpp"; do
    if [ ! -f "$f" ]; then echo "format units: $n has no $f" >&2; fail=1; fi
  done
  grep -q "FormatInfo ${n}_entry()" "lib/src/formats/${n}_story.cpp" 2>/dev/null ||
    { echo "format units: lib/src/formats/${n}_story.cpp does not define ${n}_entry()" >&2; fail=1; }
  if ! grep -q "^#include <spmv/formats/$n.hpp>" lib/include/spmv/formats/list.hpp; then
    echo "format units: list.hpp does not include <spmv/formats/$n.hpp>" >&2; fail=1
  fi
  shared=$(grep -rlF "\"$n\"" lib cli gui kernels distributed python/src python/spmvlab \
             --include='*.cpp' --include='*.hpp' --include='*.cu' --include='*.cuh' \
             --include='*.inc' --include='*.py' 2>/dev/null |
           grep -v -e '^lib/include/spmv/formats/' -e '^lib/src/formats/' \
                   -e "^kernels/include/spmv/gpu/$n\.hpp$" -e "^kernels/src/$n\.cu$" | sort || true)
  k=$(printf '%s' "$shared" | grep -c . || true)
  printf 'format units: %-8s named in %2d shared files\n' "$n" "$k"
  if [ "$n" = bijad ] && [ "$k" -gt "$limit" ]; then
    echo "format units: \"bijad\" is named in $k shared files (limit $limit):" >&2
    printf '  %s\n' $shared >&2
    fail=1
  fi
done
[ $fail = 0 ] && echo "format units: ok ($count formats)"
exit $fail
