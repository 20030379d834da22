#!/usr/bin/env bash
# Device batch for issue 19's "live GPU timing, recorded": the explorer's Timing view, run
# offscreen with the real kernels (a GUI built here and packed with its Qt runtime by
# ../shared/tools/pack-gui-for-device.sh into .gui-pack/gui.tar.xz), next to `spmvlab bench
# --gpu` on the same matrices and kernels. Run from the repository root on the GPU machine:
#   SPMV_COMMIT=<commit> bash docs/benchmarks/gui_timing_2026-11-25/run.sh [RUN...]
# RUN: bayer10 powerlaw1m pde150 pde150sp (default: all; one call of the device tool has 10
# minutes, so the batches were run as "bayer10 powerlaw1m" and "pde150 pde150sp").
# Writes $OUT/records.tar.gz (screenshots, the view's records, bench's records, logs).
set -uo pipefail
out=${OUT:?}/r; mkdir -p "$out"
source scripts/device_build.sh
[ -x build-device/cli/spmvlab ] || device_build "$out/logs" spmvlab || exit 1
mkdir -p /tmp/g /tmp/xdg && chmod 700 /tmp/xdg && tar -C /tmp/g -xJf .gui-pack/gui.tar.xz
export LD_LIBRARY_PATH=/tmp/g/lib QT_PLUGIN_PATH=/tmp/g/plugins QT_QPA_PLATFORM=offscreen \
       FONTCONFIG_FILE=/tmp/g/fonts.conf XDG_RUNTIME_DIR=/tmp/xdg
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$out/gpu.csv"
# small real (bayer10, 13k rows), large regular (pde150, 3.4M rows), irregular (power law 1M)
run_one() {  # name matrix precision
    local name=$1 m=$2 prec=$3
    local t0=$SECONDS
    /tmp/g/spmvlab-gui --screenshot "$out/timing_${name}_$prec.png" --view timing --matrix "$m" \
        --precision "$prec" --profile H100 --size 1600x1000 --audit-text --record "$out/gui_${name}_$prec.json" \
        > "$out/gui_${name}_$prec.log" 2>&1
    echo "gui $name $prec rc=$? $((SECONDS - t0)) s, texts cut short: $(grep -c 'cut short' "$out/gui_${name}_$prec.log")"
    t0=$SECONDS
    local p=dp; [ "$prec" = single ] && p=sp
    build-device/cli/spmvlab bench --gpu "$m" --precision $p --json-out "$out/bench_${name}_$prec.json" \
        > "$out/bench_${name}_$prec.log" 2>&1
    echo "bench $name $prec rc=$? $((SECONDS - t0)) s"
}
runs=${*:-bayer10 powerlaw1m pde150 pde150sp}
for r in $runs; do
    case $r in
        bayer10) run_one bayer10 .gui-pack/bayer10.mtx double ;;
        powerlaw1m) run_one powerlaw1m gen:powerlaw:rows=1000000,min-len=4,max-len=1000 double ;;
        pde150) run_one pde150 gen:pde:size=150 double ;;
        pde150sp) run_one pde150 gen:pde:size=150 single ;;
        *) echo "unknown run $r" >&2; exit 2 ;;
    esac
done
tar -C "$out" -czf "$OUT/records.tar.gz" .
