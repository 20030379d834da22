set -uo pipefail
source scripts/device_build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=build-device/cli/spmvlab
{
device_build "$OUT/logs" spmvlab test_gpu || exit 1
echo "=== test_gpu [gpu]"; timeout 150 build-device/tests/test_gpu "[gpu]~[.]" 2>&1 | tail -3
for ex in cuda-ipc host-staged; do for p in double float; do
  echo "=== verify pde40 $ex $p 2 GPUs"; timeout 30 mpiexec --bind-to none -n 2 $B dist verify gen:pde:size=40 --gpu --format sell --precision $p --exchange $ex 2>&1 | tail -4
done; done
echo "=== verify 4 ranks on 2 GPUs ipc"; timeout 30 mpiexec --oversubscribe --bind-to none -n 4 $B dist verify gen:powerlaw:rows=50000 --gpu --exchange cuda-ipc 2>&1 | tail -4
echo "=== missing file, 2 GPU ranks"; timeout 30 mpiexec --bind-to none -n 2 $B dist verify /nonexistent.mtx --gpu 2>&1 | grep -v "^-\|^ *$" | head -4; echo "rc=${PIPESTATUS[0]}"
} 2>&1 | tee $OUT/summary.txt
