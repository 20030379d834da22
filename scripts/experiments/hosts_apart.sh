#!/usr/bin/env bash
# Issue 36, "more than one host, prepared and honest": every exchange path run as between hosts,
# on the GPUs of one host, with the same-host shortcuts off:
#   SPMV_DIST_HOSTS=apart          no CUDA IPC (auto -> host-staged; cuda-ipc refused), and NCCL
#                                  told NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 (its network
#                                  transport: sockets over the loopback here)
#   OMPI_MCA_btl=self,tcp          Open MPI over TCP (loopback) instead of shared memory
# Run on the device machine from the repository root (build-device/ built, e.g. by
# scripts/experiments/pde1100_x4.sh or nccl_x2.sh):
#
#   RESULTS=$OUT/apart RANKS=4 scripts/experiments/hosts_apart.sh
#
# 1. test_mpi "[gpu],[nccl]" on RANKS ranks under those settings (every GPU test, NCCL against
#    host-staged to the last bit, CG with device reductions), NCCL_DEBUG=INFO kept in
#    RESULTS/nccl_transport.txt (the lines naming the transport: "via NET/Socket");
# 2. spmvlab dist bench gen:pde:size=$PDE --gpu --format sell --mode all, exchange auto (=
#    host-staged here) and nccl, as between hosts: RESULTS/bench_apart_<exchange>.json.
# Environment: RESULTS (out/apart), RANKS (2), PDE (150), REPEAT (100).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
RESULTS=${RESULTS:-out/apart}
RANKS=${RANKS:-2}
PDE=${PDE:-150}
REPEAT=${REPEAT:-100}
mkdir -p "$RESULTS" || exit 1
# shellcheck source=../device_build.sh
source scripts/device_build.sh
device_mpi_env
export SPMV_DIST_HOSTS=apart NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo
export OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include=lo
X="-x SPMV_DIST_HOSTS -x NCCL_P2P_DISABLE -x NCCL_SHM_DISABLE -x NCCL_SOCKET_IFNAME -x NCCL_NVLS_ENABLE"
MPI="$MPI $X"
T=build-device/tests/test_mpi
B=build-device/cli/spmvlab

echo "=== test_mpi [gpu],[nccl] on $RANKS ranks, as between hosts"
timeout 600 $MPI -n "$RANKS" "$T" "[gpu],[nccl]" >"$RESULTS/tests_apart_$RANKS.txt" 2>&1
echo "rc=$?"
grep -E "passed|failed|FAILED|SKIPPED" "$RESULTS/tests_apart_$RANKS.txt" | sort | uniq -c | head

echo "=== NCCL's transport"
NCCL_DEBUG=INFO timeout 300 $MPI -x NCCL_DEBUG -n "$RANKS" "$B" dist bench "gen:pde:size=16" \
    --gpu --format csr --mode vector --exchange nccl --repeat 2 --load root --scaling none \
    >"$RESULTS/nccl_debug.txt" 2>&1
echo "rc=$?"
grep -E "via |Channel.*NET|NET/|P2P|SHM" "$RESULTS/nccl_debug.txt" | sort | uniq | head -20 |
    tee "$RESULTS/nccl_transport.txt"

for EX in auto nccl; do
    echo "=== bench pde$PDE, exchange $EX, as between hosts"
    timeout 600 $MPI -n "$RANKS" "$B" dist bench "gen:pde:size=$PDE" --gpu --format sell \
        --mode all --precision double --exchange "$EX" --repeat "$REPEAT" --scaling none \
        --json-out "$RESULTS/bench_apart_$EX.json" >"$RESULTS/bench_apart_$EX.log" 2>&1
    echo "rc=$?"
    grep -E "exchange|median|note" "$RESULTS/bench_apart_$EX.log" | head -8
done
