#!/usr/bin/env bash
# The explorer's lecture bar (issues 19 and 34): every view at 1280 x 720, and in presentation
# mode (F5) at 1280 x 720 and at 1920 x 1080, on the pde05 sample, real matrices and generated
# ones, each checked by the program (spmvlab-gui --audit-text) for text cut short, clipped by
# its parents or smaller than the mode's minimum (F5: 18 px at 720 px of height, 27 px at 1080;
# otherwise 8 px), and each picture checked to be exactly the size asked for (a window whose
# widgets need more room fails naming them, exit 6). Writes OUT/<matrix>_<view>_<mode>.png,
# OUT/audit.txt (one line per picture: ok, or what was cut, too small or did not fit) and a
# contact sheet per matrix and mode when ImageMagick's montage is there. Exit status 1 when any
# picture fails.
#   scripts/gui_screenshots.sh OUT [MATRIX ...]
# default matrices: sample_matrices/pde05.mtx, ../shared/matrices/bayer10.mtx (13,436 rows),
# ../shared/matrices/1138_bus.mtx, gen:powerlaw:rows=100000 and gen:pde:size=100 (1,000,000
# rows, 6.9M nonzeros). MODES (environment) narrows the modes, e.g. MODES=1280x720-presentation.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?output directory}
shift
if [ $# -gt 0 ]; then
    matrices=("$@")
else
    matrices=(sample_matrices/pde05.mtx ../shared/matrices/bayer10.mtx
              ../shared/matrices/1138_bus.mtx gen:powerlaw:rows=100000 gen:pde:size=100)
fi
modes=${MODES:-"1280x720 1280x720-presentation 1920x1080-presentation"}
gui=${SPMV_BUILD_DIR:-build}/gui/spmvlab-gui
[ -x "$gui" ] || { echo "no $gui (build with -DSPMV_BUILD_GUI=ON, or set SPMV_BUILD_DIR)" >&2; exit 2; }
for m in "${matrices[@]}"; do
    case "$m" in gen:*) ;; *) [ -f "$m" ] || { echo "no matrix $m" >&2; exit 2; } ;; esac
done
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/spmvlab-xdg}
mkdir -p "$XDG_RUNTIME_DIR" "$out" && chmod 700 "$XDG_RUNTIME_DIR"
views=$("$gui" --help | tr '\n' ' ' | sed 's/  */ /g' | sed -n 's/.*View: \([^.]*\)\..*/\1/p' | tr -d ',')
[ -n "$views" ] || { echo "could not read the view names from $gui --help" >&2; exit 2; }
audit=$out/audit.txt
{
    echo "# spmvlab-gui --audit-text, $(date -u +%Y-%m-%d), commit $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
    echo "# views: $views"
    echo "# modes: $modes"
} > "$audit"
# the PNG's width x height (IHDR bytes 16-23)
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'; }
bad=0
for m in "${matrices[@]}"; do
    name=$(basename "$m" .mtx | tr ':=,' '___')
    for mode in $modes; do
        size=${mode%%-*}
        extra=()
        [ "$mode" != "$size" ] && extra=(--presentation)
        for v in $views; do
            png=$out/${name}_${v}_${mode}.png
            rm -f "$png"
            t0=$(date +%s.%N)
            msg=$(timeout 600 "$gui" --screenshot "$png" --view "$v" --matrix "$m" --size "$size" \
                      "${extra[@]}" --audit-text 2>&1 | grep -v -e propagateSizeHints -e XDG_RUNTIME)
            t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
            problems=$(printf '%s\n' "$msg" | grep -c "cut short:\|too small:\|does not fit" || true)
            got=$([ -s "$png" ] && png_size "$png" || echo none)
            if [ "$problems" -gt 0 ] || [ "$got" != "$size" ]; then
                bad=1
                echo "FAIL $name $v $mode (${t} s, picture $got): $(printf '%s\n' "$msg" | grep 'cut short:\|too small:\|does not fit\|error' | head -5 | tr '\n' ';')" >> "$audit"
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
grep -c '^ok' "$audit" | sed 's/$/ pictures of the size asked for, nothing cut short or too small/'
grep '^FAIL' "$audit"
exit $bad
