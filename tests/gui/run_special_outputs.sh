#!/usr/bin/env bash
# spmvlab-gui writes --screenshot / --record onto special files in place and never replaces
# them (issue 32: run as root, `--screenshot /dev/null` once replaced the system's /dev/null).
# Device nodes are made with mknod in a temporary folder, never in /dev. Without the right to
# mknod (not root) the device cases are skipped visibly (exit 77, CTest's SKIP_RETURN_CODE);
# the link cases run anyway.
#   run_special_outputs.sh SPMV_GUI MATRIX
set -u
gui=$1
sample=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/spmvlab-special.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
shot() { "$gui" --matrix "$sample" "$@" >"$dir/log" 2>&1; }

# a symbolic link to a regular file: the link stays, its target gets the picture
: >"$dir/target.png"
ln -s target.png "$dir/link.png"
shot --view matrix --screenshot "$dir/link.png" || fail "screenshot through a link exited $?: $(cat "$dir/log")"
[ -L "$dir/link.png" ] || fail "the link was replaced by a file"
head -c 4 "$dir/target.png" | od -An -c | grep -q 'P   N   G' ||
    fail "the link's target holds no PNG"
echo "link: kept, target written ($(stat -c %s "$dir/target.png") bytes)"

if ! mknod "$dir/null" c 1 3 2>/dev/null; then
    ((fails)) && exit 1
    echo "SKIPPED: mknod needs root here; device cases not run"
    exit 77
fi
mknod "$dir/full" c 1 7
# a character device that takes everything: written in place, exit 0, still a device
shot --view matrix --screenshot "$dir/null" || fail "screenshot onto a null device exited $?: $(cat "$dir/log")"
[ -c "$dir/null" ] || fail "the null device was replaced (now: $(stat -c %F "$dir/null"))"
# --record onto it as well
shot --view timing --record "$dir/null" --screenshot "$dir/shot.png" ||
    fail "--record onto a null device exited $?: $(cat "$dir/log")"
[ -c "$dir/null" ] || fail "--record replaced the null device"
# a device that refuses every write: a non-zero exit that names it, still a device
if shot --view matrix --screenshot "$dir/full"; then
    fail "screenshot onto a full device exited 0"
else
    grep -q "$dir/full" "$dir/log" || fail "the error does not name the device: $(cat "$dir/log")"
fi
[ -c "$dir/full" ] || fail "the full device was replaced (now: $(stat -c %F "$dir/full"))"
# a link to a device: written through the link, both stay
ln -s null "$dir/null-link.png"
shot --view matrix --screenshot "$dir/null-link.png" || fail "screenshot through a link to a device exited $?"
[ -L "$dir/null-link.png" ] && [ -c "$dir/null" ] || fail "the link or the device was replaced"
echo "devices: null written in place, full refused with its name, both still character devices"
if ((fails)); then
    echo "$fails failure(s)"
    exit 1
fi
echo "PASSED"
