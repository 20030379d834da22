#!/usr/bin/env bash
# The explorer's lecture bar (issue 19): every view at 1280 x 720 and in presentation mode at
# 1920 x 1080, on the pde05 sample, a real matrix of 4,000-20,000 rows and a 1M-row matrix,
# each checked by the program for text cut short (spmvlab-gui --audit-text: labels, buttons,
# table cells, tabs, chart labels and painted text). Writes OUT/<matrix>_<view>_<mode>.png,
# OUT/audit.txt (one line per picture: ok, or what was cut) and a contact sheet per matrix and
# mode when ImageMagick's montage is there. Exit status 1 when any picture has text cut short.
#   scripts/gui_screenshots.sh OUT [REAL_MATRIX.mtx] [BIG_SPEC]
# defaults: ../shared/matrices/bayer10.mtx (13,436 rows; SuiteSparse Bayer/bayer10) and
# gen:pde:size=100 (1,000,000 rows, 6.9M nonzeros).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?output directory}
real=${2:-../shared/matrices/bayer10.mtx}
big=${3:-gen:pde:size=100}
gui=${SPMV_BUILD_DIR:-build-gui}/gui/spmvlab-gui
[ -x "$gui" ] || { echo "no $gui (build with -DSPMV_BUILD_GUI=ON)" >&2; exit 2; }
[ -f "$real" ] || { echo "no real matrix $real" >&2; exit 2; }
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/spmvlab-xdg}
mkdir -p "$XDG_RUNTIME_DIR" "$out" && chmod 700 "$XDG_RUNTIME_DIR"
views=$("$gui" --help | tr '\n' ' ' | sed 's/  */ /g' | sed -n 's/.*View: \([^.]*\)\..*/\1/p' | tr -d ',')
[ -n "$views" ] || { echo "could not read the view names from $gui --help" >&2; exit 2; }
audit=$out/audit.txt
{
    echo "# spmvlab-gui --audit-text, $(date -u +%Y-%m-%d), commit $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
    echo "# views: $views"
} > "$audit"
bad=0
for m in sample_matrices/pde05.mtx "$real" "$big"; do
    name=$(basename "$m" .mtx | tr ':=,' '___')
    for mode in 1280x720 1920x1080-presentation; do
        size=${mode%%-*}
        extra=()
        [ "$mode" != "$size" ] && extra=(--presentation)
        for v in $views; do
            png=$out/${name}_${v}_${mode}.png
            t0=$(date +%s.%N)
            msg=$(timeout 600 "$gui" --screenshot "$png" --view "$v" --matrix "$m" --size "$size" \
                      "${extra[@]}" --audit-text 2>&1 | grep -v -e propagateSizeHints -e XDG_RUNTIME)
            t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
            cut=$(printf '%s\n' "$msg" | grep -c "cut short:" || true)
            if [ "$cut" -gt 0 ] || [ ! -s "$png" ]; then
                bad=1
                echo "CUT  $name $v $mode (${t} s): $(printf '%s\n' "$msg" | grep 'cut short:\|error' | head -5 | tr '\n' ';')" >> "$audit"
            else
                echo "ok   $name $v $mode (${t} s)" >> "$audit"
            fi
        done
        if command -v montage >/dev/null; then
            montage "$out/${name}"_*"_${mode}.png" -tile 4x -geometry 480x+6+6 -title "$name $mode" \
                "$out/sheet_${name}_${mode}.jpg" 2>/dev/null
        fi
    done
done
grep -c '^ok' "$audit" | sed 's/$/ pictures without text cut short/'
grep '^CUT' "$audit"
exit $bad
