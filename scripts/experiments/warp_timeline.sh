#!/usr/bin/env bash
# Issue 34's bar "the GPU's own warps, measured": a warp timeline recorded on an H100/H200 for
# ELLPACK-R and pJDS on a power law, its [gpu] tests, and (back on the workstation, which has Qt)
# the explorer's screenshot of it. Run from the repository root.
#
#   On the device machine (the `run` tool; .deps carried as for scripts/device_check.sh):
#     scripts/experiments/warp_timeline.sh device
#   writes $OUT/warp_timeline/: warps_powerlaw_dp.json (ellr + pjds, double), warps_powerlaw_sp.json
#   (single), warps_hyb_jds.json (the multi-launch formats), the [gpu][trace] test log, the
#   summaries spmvlab printed, and the overhead check: the untraced kernels timed with the
#   recorder compiled in (build-device) and without it (build-notrace, -DSPMV_WARP_TRACE=OFF).
#
#   Then here, on the files brought back (copy them to docs/benchmarks/warps_<date>/):
#     scripts/experiments/warp_timeline.sh screenshots DIR
#   renders DIR/warps_powerlaw_dp.png (1280x720, both variants) and DIR/warps_powerlaw_dp_f5.png
#   (presentation mode, 1920x1080) with build/gui/spmvlab-gui.
#
# The matrix: gen:powerlaw:rows=200000,max-len=5000 (the CLI's power law, exponent 2, seed 1:
# most rows of 1-3 entries, a few of thousands): 6,250 warps per variant, a timeline that stays
# readable; the long-row warps run ~5,000 loop trips where the median warp runs a few dozen
# (rows=1000000 works too: 31,250 warps a variant, a ~7 MB file).
set -uo pipefail
part=${1:?usage: warp_timeline.sh device | screenshots DIR}
MATRIX=${MATRIX:-gen:powerlaw:rows=200000,max-len=5000}
case $part in
device)
    out=${OUT:?}/warp_timeline
    mkdir -p "$out"
    export SPMV_COMMIT=${SPMV_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}
    source scripts/device_build.sh
    # the recorder is a build option, OFF by default (kernels/README.md, "Warp timelines")
    SPMV_CMAKE_ARGS=-DSPMV_WARP_TRACE=ON device_build "$out" spmvlab test_gpu || exit 1
    S=build-device/cli/spmvlab
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > "$out/gpu.txt"
    timeout 300 build-device/tests/test_gpu "[trace]" > "$out/test_gpu_trace.txt" 2>&1
    echo "test_gpu [trace] rc=$?"; tail -3 "$out/test_gpu_trace.txt"
    $S bench "$MATRIX" --gpu --formats ellr,pjds --precision dp \
        --warp-timeline "$out/warps_powerlaw_dp.json" | tee "$out/warps_powerlaw_dp.txt"
    $S bench "$MATRIX" --gpu --formats ellr,pjds --precision sp \
        --warp-timeline "$out/warps_powerlaw_sp.json" | tee "$out/warps_powerlaw_sp.txt"
    # formats of several launches: HYB (ELL, then COO and its carry pass), plain JDS (one launch
    # per jagged diagonal), and the split and merge kernels
    $S bench gen:powerlaw:rows=20000 --gpu --formats hyb,jds,pjds_split,csr_merge \
        --warp-timeline "$out/warps_hyb_jds.json" | tee "$out/warps_hyb_jds.txt"
    # untraced speed, A/B: the same kernels built without the recorder (-DSPMV_WARP_TRACE=OFF);
    # ptxas moved some kernels across an occupancy step (kernels/README.md, "Warp timelines":
    # csr_vector in single precision 32 -> 40 registers, some SELL instantiations), so time
    # those too, both precisions
    prefix="$PWD/.deps/catch2/usr;$PWD/.deps/cli11/usr;$PWD/.deps/json/usr"
    cmake -S . -B build-notrace -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMV_BUILD_GUI=OFF \
        -DSPMV_BUILD_TUTORIALS=OFF -DSPMV_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DSPMV_WARP_TRACE=OFF "-DCMAKE_PREFIX_PATH=$prefix" > "$out/notrace_configure.log" 2>&1 &&
        cmake --build build-notrace -j"$(nproc)" --target spmvlab > "$out/notrace_build.log" 2>&1 ||
        { tail -20 "$out"/notrace_*.log; echo "notrace build failed"; }
    AB="ellr,pjds,csr_merge,sell,csr_vector,csr,pellr,sell_split"
    for b in build-device build-notrace; do
        $b/cli/spmvlab bench "$MATRIX" gen:pde:size=100 --gpu --formats "$AB" --precision both \
            --json-out "$out/bench_untraced_$b.json" | tee "$out/bench_untraced_$b.txt"
    done
    ls -la "$out"
    ;;
screenshots)
    dir=${2:?usage: warp_timeline.sh screenshots DIR (holding warps_powerlaw_dp.json)}
    G=build/gui/spmvlab-gui
    QT_QPA_PLATFORM=offscreen $G --view warps --warp-timeline "$dir/warps_powerlaw_dp.json" \
        --size 1280x720 --screenshot "$dir/warps_powerlaw_dp.png"
    QT_QPA_PLATFORM=offscreen $G --view warps --warp-timeline "$dir/warps_powerlaw_dp.json" \
        --size 1920x1080 --presentation --screenshot "$dir/warps_powerlaw_dp_f5.png"
    QT_QPA_PLATFORM=offscreen $G --view warps --warp-timeline "$dir/warps_hyb_jds.json" \
        --size 1280x720 --screenshot "$dir/warps_hyb_jds.png"
    ;;
*)
    echo "usage: warp_timeline.sh device | screenshots DIR" >&2
    exit 2
    ;;
esac
