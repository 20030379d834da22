#!/usr/bin/env bash
# The device check the commits after 42279b6 wait for (issue 37; one H200, one call of about
# 460 s): the SELL block order limited to launches past one resident wave, the kernel's
# `ordered` template parameter (the unordered launch's PTX is 5a3cb1c's), and bench's `order`
# column / block_order JSON. Builds the working tree and, beside it, 5a3cb1c's sell.cu,
# sell.hpp, sell_i16.hpp (device_ab_build; prepare .bench/old_files
# here first:
#   rm -rf .bench/old_files; for f in kernels/src/sell.cu kernels/include/spmv/gpu/sell.hpp \
#       kernels/include/spmv/gpu/sell_i16.hpp; do
#       mkdir -p .bench/old_files/$(dirname $f); git show 5a3cb1c:$f > .bench/old_files/$f; done
#   sed -i '19a inline constexpr int sell_spmv_block_threads = 128;' \
#       .bench/old_files/kernels/include/spmv/gpu/sell.hpp
# (the current CLI names the block width that 5a3cb1c's sell.cu hard-codes; the kernels'
# CMakeLists.txt is the current one, which lists block_order.cpp: the old build links the
# current bench, which asks for the launch's order and gets none from the old sell.cu)
# and carry .deps and .bench). Then the whole [gpu] suite of the new build, then old / new
# alternating in two rounds on the large matrices the order was measured on (sigma auto, both
# precisions). Everything goes into $OUT/s36.tar, packed again after each step (the device
# returns a limited number of files).
#   SPMV_COMMIT=<sha> OUT=$OUT bash scripts/experiments/s36.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
W=$OUT/w
mkdir -p "$W"
pack() { tar cf "$OUT/s36.tar" -C "$W" .; }
device_ab_build "$W" 5a3cb1c spmvlab test_gpu || { pack; exit 1; }
pack
timeout 200 build-device/tests/test_gpu > "$W/test_gpu.txt" 2>&1
echo "test_gpu rc=$? $SECONDS s" | tee -a "$W/log.txt"; tail -2 "$W/test_gpu.txt" | tee -a "$W/log.txt"
pack
NEW=build-device/cli/spmvlab
OLD=.bench/old/build-device/cli/spmvlab
M="gen:blocks5:block-rows=100000,blocks=8 gen:blocks5:block-rows=60000,blocks=8,seed=7 gen:pde:size=100 gen:pde:size=150 gen:powerlaw:rows=1000000"
for r in 1 2; do
    for b in old new; do
        S=$NEW; [ $b = old ] && S=$OLD
        t0=$SECONDS
        # shellcheck disable=SC2086  # M is a list of words
        timeout 90 $S bench --gpu --precision both --sigma auto --formats sell,sell_i16,pjds,cusparse_sell \
            --min-time 100 --min-reps 50 $M --json-out "$W/${b}_r$r.json" > "$W/${b}_r$r.txt" 2> "$W/${b}_r$r.err"
        echo "$b round $r rc=$? $((SECONDS - t0)) s" | tee -a "$W/log.txt"
        pack
    done
done
