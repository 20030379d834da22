#!/usr/bin/env bash
# Sourced by the device batches (scripts/experiments/*.sh, docs/benchmarks/*/run.sh):
#   source scripts/device_build.sh; device_build LOGDIR TARGET...
# configures build-device/ (Release, no GUI or tutorials, sm_90, Catch2/CLI11/json from the
# Debian packages unpacked under .deps/, see scripts/device_check.sh; METIS too where
# .deps/metis holds libmetis5 and libmetis-dev) and builds TARGETs; on a
# failure prints the error and returns non-zero. SPMV_CMAKE_ARGS: more -D options (e.g.
# -DSPMV_WARP_TRACE=ON). Logs: LOGDIR/configure.log, LOGDIR/build.log.
device_build() {
    local logs=$1
    shift
    local prefix="$PWD/.deps/catch2/usr;$PWD/.deps/cli11/usr;$PWD/.deps/json/usr"
    # METIS (libmetis5 + libmetis-dev unpacked under .deps/metis) for --partition metis
    [ -d .deps/metis/usr ] && prefix="$prefix;$PWD/.deps/metis/usr"
    local t0=$SECONDS
    mkdir -p "$logs"
    cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMV_BUILD_GUI=OFF \
        -DSPMV_BUILD_TUTORIALS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 "-DCMAKE_PREFIX_PATH=$prefix" \
        ${SPMV_CMAKE_ARGS:-} >"$logs/configure.log" 2>&1 || { tail -30 "$logs/configure.log"; return 1; }
    cmake --build build-device -j"$(nproc)" --target "$@" >"$logs/build.log" 2>&1 ||
        { grep -B5 -A20 "error" "$logs/build.log" | head -80; return 1; }
    echo "build $((SECONDS - t0)) s"
}

# The environment of the MPI batches (scripts/experiments/*.sh): root may run mpirun (the
# device machines run as root), NVLink multicast stays off (the device machines' rule:
# KINDS.md), and MPI holds the mpirun command line they start ranks with.
device_mpi_env() {
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_rmaps_base_oversubscribe=1
    export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
    MPI="mpirun --allow-run-as-root --oversubscribe --bind-to none"
}

# The A/B batches (scripts/experiments/s32.sh on): builds the working tree (build-device/) and,
# beside it in .bench/old, the tree with the former versions of the changed files from
# .bench/old_files (for f in $(git diff --name-only <old>): git show <old>:$f >
# .bench/old_files/$f), both at once; logs and build times in OUT/build.txt and
# OUT/build_old.txt, the GPU in OUT/gpu.csv. Then .bench/old/build-device/cli/spmvlab is the old
# spmvlab.
#   device_ab_build OUT OLD_COMMIT TARGET...
device_ab_build() {
    local out=$1 old_commit=$2
    shift 2
    mkdir -p .bench/old
    tar cf - --exclude=./.bench --exclude=./.mtx --exclude=./.deps --exclude='./build*' . |
        tar xf - -C .bench/old
    cp -r .bench/old_files/. .bench/old/
    ln -sfn ../../.deps .bench/old/.deps
    ( cd .bench/old && SPMV_COMMIT=$old_commit device_build "$out/logs_old" spmvlab ) \
        > "$out/build_old.txt" 2>&1 &
    device_build "$out/logs" "$@" > "$out/build.txt" 2>&1 || { cat "$out/build.txt"; return 1; }
    wait $! || { cat "$out/build_old.txt"; return 1; }
    cat "$out/build.txt" "$out/build_old.txt"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.memory --format=csv \
        > "$out/gpu.csv"
}
