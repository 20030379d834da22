#!/bin/bash
# rebuild an installed package as a .deb (like dpkg-repack), for timing an offline install
p=$1; out=/tmp/repack/debs; d=/tmp/repack/tree/$p; rm -rf "$d"; mkdir -p "$d/DEBIAN" "$out"
info=/var/lib/dpkg/info
name=$p; [ -e $info/$p.list ] || name=$p:amd64
dpkg-query -s "$name" | grep -v '^Status:' | grep -v '^Config-Version:' > "$d/DEBIAN/control"
for s in preinst postinst prerm postrm conffiles triggers shlibs symbols templates config; do
  [ -e $info/$name.$s ] && cp -a $info/$name.$s "$d/DEBIAN/$s"
done
dpkg -L "$name" | while read -r f; do
  [ "$f" = "/." ] && continue
  if [ -d "$f" ] && [ ! -L "$f" ]; then mkdir -p "$d$f"; elif [ -e "$f" ] || [ -L "$f" ]; then cp -a --parents "$f" "$d" 2>/dev/null; fi
done
dpkg-deb -Zxz -z1 --root-owner-group -b "$d" "$out/${p}.deb" >/dev/null 2>&1 || echo "FAIL $p"
rm -rf "$d"
