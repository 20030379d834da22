#!/usr/bin/env bash
# STYLE.md 5.1: lib/ is host-only C++ (no CUDA, no Qt, no Thrust); kernels' public headers are
# plain C++; the GUI holds no #ifdef on CUDA, and its folders include downward only
# (STYLE.md 5.6: session < models < widgets < app).
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
if grep -rnE '#\s*include\s*[<"](cuda|cusparse|thrust|cub|Q[A-Za-z]|qt)' lib/; then
  echo "layering: lib/ must not include CUDA, Thrust/CUB or Qt headers" >&2; fail=1
fi
if grep -rnE '#\s*include\s*[<"](cuda|cusparse|thrust|cub)' kernels/include/; then
  echo "layering: kernels/include must stay plain C++" >&2; fail=1
fi
if [ -d gui ] && grep -rn 'SPMV_HAS_CUDA\|__CUDACC__' gui/ 2>/dev/null; then
  echo "layering: gui/ must ask spmv::gpu::is_available() at runtime, not #ifdef" >&2; fail=1
fi
# The explorer's layers, lowest first: session/ (document, controller, jobs, workers) < models/
# (table models) < widgets/ (views) < app/ (window, command line, lessons) < bench/. A file may
# include its own layer and those below it, never one above ("app/x.hpp" from widgets/, say).
# A quoted include without a folder is the includer's own folder. A folder of gui/ that is not
# in the list fails too, so that a new one is given its place.
if [ -d gui ]; then
  gui_layers="session models widgets app bench"
  for dir in gui/*/; do
    d=$(basename "$dir")
    case " $gui_layers " in
      *" $d "*) ;;
      *) echo "layering: gui/$d/ is not one of the explorer's layers ($gui_layers)" >&2; fail=1 ;;
    esac
  done
  if ! grep -rnE '^\s*#\s*include\s*"' gui/ --include='*.hpp' --include='*.cpp' --include='*.h' |
    awk -v layers="$gui_layers" '
      BEGIN { n = split(layers, l, " "); for (i = 1; i <= n; ++i) rank[l[i]] = i }
      {
        split($0, part, ":"); file = part[1]
        split(file, fp, "/"); from = fp[2]
        if (!(from in rank)) next
        inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
        while (inc ~ /^\.\.?\//) sub(/^\.\.?\//, "", inc)
        if (inc !~ /\//) next  # the same folder
        split(inc, ip, "/"); to = ip[1]
        if ((to in rank) && rank[to] > rank[from]) {
          printf "layering: %s:%s: gui/%s/ includes \"%s\" from gui/%s/, a layer above it\n",
                 part[1], part[2], from, inc, to > "/dev/stderr"
          bad = 1
        }
      }
      END { exit bad }'; then
    echo "layering: gui/ includes run downward only: session < models < widgets < app" >&2; fail=1
  fi
fi
[ $fail = 0 ] && echo "layering: ok"
exit $fail
