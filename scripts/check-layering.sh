#!/usr/bin/env bash
# STYLE.md 5.1: lib/ is host-only C++ (no CUDA, no Qt, no Thrust); kernels' public headers are
# plain C++; the GUI holds no #ifdef on CUDA.
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
[ $fail = 0 ] && echo "layering: ok"
exit $fail
