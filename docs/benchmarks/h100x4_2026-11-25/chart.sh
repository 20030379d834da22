#!/usr/bin/env bash
# The model (H200 profile: the 4-GPU machine lent was 4 x H200) against the measured points of
# run_d (pde500 on 1, 2 and 4 GPUs of one host): chart and table, on any machine (no GPU, no
# MPI; pde500 is regenerated: about 12 GB of memory and a minute). Writes scaling_pde500.svg,
# model_vs_measured.txt and model_vs_measured.json here.
set -euo pipefail
cd "$(dirname "$0")"
B=${SPMVLAB:-../../../build/cli/spmvlab}
$B dist chart run_d/records/bench2_pde500_csr_nnz_double_ipc.json \
    run_d/records/bench4_pde500_csr_nnz_double_ipc.json --device H200 --scaling 1,2,4,8 \
    --svg scaling_pde500.svg --json-out model_vs_measured.json | tee model_vs_measured.txt
