#!/usr/bin/env bash
# Session 18 device batch (issue 33: behaviour unchanged after the architecture work), run from
# the repository root on a 2-GPU device machine with .deps and out/s18/old carried (out/s18/old:
# `git archive` of the commit before, 8a4433f: CMakeLists.txt cmake lib kernels dist cli schemas
# tests):
#   scripts/experiments/s18.sh build|tests|verify|naive|modes|ab
# Outputs under $OUT/s18/<part>/. SPMV_COMMIT must be set (the copy has no .git).
set -uo pipefail
part=${1:?usage: s18.sh build|tests|verify|naive|modes|ab}
out=${OUT:?}/s18/$part
mkdir -p "$out"
export SPMV_COMMIT=${SPMV_COMMIT:?}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export NCCL_NVLS_ENABLE=0
t0=$SECONDS
S=build-device/cli/spmvlab
OLD=build-old/cli/spmvlab
MPI="mpiexec --bind-to none -n 2"
case $part in
build)
    source scripts/device_build.sh
    device_build "$out" spmvlab test_gpu test_mpi || exit 1
    # the commit before, for the side-by-side runs (spmvlab and the MPI tests)
    prefix="$PWD/.deps/catch2/usr;$PWD/.deps/cli11/usr;$PWD/.deps/json/usr"
    (SPMV_COMMIT=8a4433f cmake -S out/s18/old -B build-old -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DSPMV_BUILD_GUI=OFF -DSPMV_BUILD_TUTORIALS=OFF -DSPMV_BUILD_TESTS=ON \
        -DSPMV_BUILD_PYTHON=OFF -DCMAKE_CUDA_ARCHITECTURES=90 "-DCMAKE_PREFIX_PATH=$prefix" \
        > "$out/old_configure.log" 2>&1 && cmake --build build-old -j"$(nproc)" --target spmvlab test_mpi \
        > "$out/old_build.log" 2>&1) || { tail -30 "$out"/old_*.log; echo "old build failed"; }
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv > "$out/gpu.txt"
    cat "$out/gpu.txt"; echo "build total $((SECONDS - t0)) s"
    ;;
tests)
    timeout 300 build-device/tests/test_gpu "[gpu]~[.]" > "$out/test_gpu.txt" 2>&1
    echo "test_gpu rc=$? $((SECONDS - t0)) s"; tail -3 "$out/test_gpu.txt"
    grep -B2 -A12 "FAILED" "$out/test_gpu.txt" | head -40
    timeout 120 $MPI build-device/tests/test_mpi "[gpu]" > "$out/test_mpi_gpu.txt" 2>&1
    echo "test_mpi [gpu] 2 ranks rc=$? $((SECONDS - t0)) s"; tail -4 "$out/test_mpi_gpu.txt"
    ;;
verify)
    for ex in host-staged cuda-ipc auto; do
        for extra in "" "--format sell --precision float"; do
            timeout 60 $MPI $S dist verify gen:pde:size=100 --gpu --mode all --exchange $ex $extra \
                > "$out/verify_${ex}_${extra// /_}.log" 2>&1
            echo "verify pde100 $ex $extra rc=$?"; tail -2 "$out/verify_${ex}_${extra// /_}.log"
        done
        timeout 60 $MPI $S dist verify sample_matrices/powerlaw_2k.mtx --gpu --mode all \
            --exchange $ex --split-blocks > "$out/verify_${ex}_powerlaw_split.log" 2>&1
        echo "verify powerlaw_2k $ex --split-blocks rc=$?"; tail -2 "$out/verify_${ex}_powerlaw_split.log"
    done
    echo "verify total $((SECONDS - t0)) s"
    ;;
naive)
    # naive mode's GPU timeline check (overlapped fraction < 5 %) on the commit before and this
    # one, several runs each: is a failure the schedule or the clocks?
    for b in new old; do
        t=build-device/tests/test_mpi; [ $b = old ] && t=build-old/tests/test_mpi
        for i in 1 2 3; do
            timeout 60 $MPI $t "[gpu]" > "$out/${b}_$i.txt" 2>&1
            echo "$b run $i rc=$? $(grep -ho 'with expansion:' -A1 "$out/${b}_$i.txt" | grep '<' | tr -d ' ' | sed 's/\x1b\[[0-9;]*m//g' | tr '\n' ' ')"
        done
    done
    echo "naive total $((SECONDS - t0)) s"
    ;;
modes)
    # the four modes, the commit before against this one, on the same machine, one after the other
    for b in new old; do
        bin=$S; [ $b = old ] && bin=$OLD
        [ -x "$bin" ] || { echo "no $bin"; continue; }
        PDE=${PDE:-gen:pde:size=250} PL=${PL:-gen:powerlaw:rows=200000,min-len=4,max-len=1000} \
            REPEAT=${REPEAT:-100} BUDGET_S=${BUDGET_S:-150} \
            docs/benchmarks/modes_2026-11-28/run.sh "$PWD/$bin" "$out/$b" 2 | tail -14
    done
    echo "modes total $((SECONDS - t0)) s"
    ;;
ab)
    # the commit before and this one alternately (old, new, old, new, ...), the inputs where the
    # modes run differed most: per mode the median of 200 products, slowest rank
    for i in 1 2 3; do
        for b in old new; do
            bin=$S; [ $b = old ] && bin=$OLD
            for spec in "powerlaw-hs gen:powerlaw:rows=200000,min-len=4,max-len=1000 host-staged" \
                        "pde250-ipc gen:pde:size=250 cuda-ipc"; do
                set -- $spec
                timeout 90 $MPI $bin dist bench "$2" --gpu --mode all --precision double \
                    --exchange "$3" --repeat 200 --scaling none > "$out/${b}_$1_$i.log" 2>&1
                echo "$i $b $1 rc=$? $(awk '$2 == "median" {printf "%s %s  ", $1, $3}' "$out/${b}_$1_$i.log")"
            done
        done
    done
    echo "ab total $((SECONDS - t0)) s"
    ;;
esac
