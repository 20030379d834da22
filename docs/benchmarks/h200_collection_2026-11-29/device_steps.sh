#!/usr/bin/env bash
# session 27 device steps: run from the repo root on the device.  s27run.sh STEP
# STEP 1: unpack s27a, build, smoke, the first 25 of .mtx/a
# STEP 2: the other 25 of a, then b's first part, as time allows (parts by list files)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
export FORMATS=csr,csr_vector,csr_adaptive,csr_tiled,csr_merge,ell,ell_xs,ellg,hyb,sell,sell_split,sell_i16,sell_xs,jds_csr,biell,cusparse_csr_alg1,cusparse_csr_alg2,cusparse_coo_alg1,cusparse_coo_alg2,cusparse_sell
W=$PWD/.bench/w
mkdir -p $W
[ -d $W/s27a ] || tar xJf .bench/s27a.tar.xz -C $W
[ -f .bench/s27mtxb.tar.xz ] && [ ! -d $W/s27a/.mtx/b ] && tar xJf .bench/s27mtxb.tar.xz -C $W/s27a
cd $W/s27a
sub() {  # sub NAME SRC FROM COUNT: .mtx/NAME = files FROM..FROM+COUNT-1 of .mtx/SRC, then bench it as part NAME
    rm -rf .mtx/$1; mkdir -p .mtx/$1
    LC_ALL=C ls .mtx/$2 | tail -n +$3 | head -n $4 | while read f; do ln -s ../$2/$f .mtx/$1/$f; done
}
step=${1:?}
sub2() {  # sub2 PART FROM COUNT: .mtx/PART = files FROM.. of .mtx/PART_all (copies)
    [ -d .mtx/$1_all ] || mv .mtx/$1 .mtx/$1_all
    rm -rf .mtx/$1; mkdir -p .mtx/$1
    LC_ALL=C ls .mtx/$1_all | tail -n +$2 | head -n $3 | while read f; do cp .mtx/$1_all/$f .mtx/$1/; done
    echo "part $1 = files $2.. : $(ls .mtx/$1 | wc -l)"
}
export SPMV_COMMIT=$(cat commit.txt)
case $step in
  1) sub2 a 1 50; ls -d /root/out* 2>/dev/null; OUT=$OUT/r1 timeout ${T:-560} bash scripts/experiments/card_records.sh a ;;
  2) sub2 a 26 25; OUT=$OUT/r2 timeout ${T:-560} bash scripts/experiments/card_records.sh a ;;
  3) sub2 b ${FROM:-1} ${COUNT:-25}; OUT=$OUT/r3 timeout ${T:-560} bash scripts/experiments/card_records.sh b ;;
  4) sub2 b ${FROM:-26} ${COUNT:-25}; OUT=$OUT/r4 timeout ${T:-560} bash scripts/experiments/card_records.sh b ;;
esac
echo "step $step rc=$?"
