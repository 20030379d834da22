#!/usr/bin/env bash
# Device batch for issue 19's last bar after the launch gate (b326c7c): the explorer's Timing
# view (a GUI built with CUDA here and packed with its Qt runtime by
# ../shared/tools/pack-gui-for-device.sh into .gui-pack/gui.tar.xz) next to `spmvlab bench
# --gpu` on bayer10 (the matrix where plain JDS differed by 51 % before the gate), in double
# precision; then plain JDS and pJDS timed by bench with every CPU core busy, to show that the
# gate keeps the host's load out of the time. Run from the repository root on the GPU machine:
#   SPMV_COMMIT=<commit> PART=cli bash docs/benchmarks/gui_timing_2026-11-26/run.sh  (carry .deps)
#   SPMV_COMMIT=<commit> PART=gui bash docs/benchmarks/gui_timing_2026-11-26/run.sh  (carry .gui-pack;
#     the same warm machine, whose build-device/ the first part built: the two parts do not fit
#     the 64 MiB a call may carry together)
# Writes $OUT/records_$PART.tar.gz.
set -uo pipefail
out=${OUT:?}/r; mkdir -p "$out"
S=build-device/cli/spmvlab
m=.gui-pack/bayer10.mtx
t0=$SECONDS
if [ "${PART:?cli or gui}" = cli ]; then
source scripts/device_build.sh
device_build "$out/logs" spmvlab test_gpu || exit 1
build-device/tests/test_gpu "[bench],[ladder]" > "$out/test_gpu_bench.txt" 2>&1
echo "test_gpu [bench],[ladder] rc=$?"; tail -2 "$out/test_gpu_bench.txt"
m=$PWD/bayer10.mtx; cp "${BAYER10:?path of bayer10.mtx}" "$m"
# the multi-launch (jds, hyb) and single-launch (pjds) variants, idle and with every core spinning
"$S" bench --gpu "$m" --precision dp --formats jds,pjds,hyb --json-out "$out/bench_idle.json" > "$out/bench_idle.log" 2>&1
echo "bench idle rc=$?"
pids=(); for i in $(seq "$(nproc)"); do (while :; do :; done) & pids+=($!); done
"$S" bench --gpu "$m" --precision dp --formats jds,pjds,hyb --json-out "$out/bench_loaded.json" > "$out/bench_loaded.log" 2>&1
echo "bench loaded rc=$?"; kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null
else
mkdir -p /tmp/g /tmp/xdg && chmod 700 /tmp/xdg && tar -C /tmp/g -xJf .gui-pack/gui.tar.xz
export LD_LIBRARY_PATH=/tmp/g/lib QT_PLUGIN_PATH=/tmp/g/plugins QT_QPA_PLATFORM=offscreen \
       FONTCONFIG_FILE=/tmp/g/fonts.conf XDG_RUNTIME_DIR=/tmp/xdg
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$out/gpu.csv"
/tmp/g/spmvlab-gui --screenshot "$out/timing_bayer10_double.png" --view timing --matrix "$m" \
    --precision double --profile H100 --size 1600x1000 --audit-text --record "$out/gui_bayer10_double.json" \
    > "$out/gui_bayer10_double.log" 2>&1
echo "gui rc=$? $((SECONDS - t0)) s, texts cut short: $(grep -c 'cut short' "$out/gui_bayer10_double.log")"
[ -x "$S" ] || { echo "no $S: run PART=cli first on this machine"; exit 1; }
"$S" bench --gpu "$m" --precision dp --json-out "$out/bench_bayer10_double.json" > "$out/bench_bayer10_double.log" 2>&1
echo "bench rc=$? $((SECONDS - t0)) s"
fi
echo "total $((SECONDS - t0)) s"
tar -C "$out" -czf "$OUT/records_$PART.tar.gz" .
