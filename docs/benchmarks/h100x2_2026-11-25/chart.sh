#!/usr/bin/env bash
# The model against the measured points of the two-GPU records (run_b, run_c): charts and
# tables, on any machine (no GPU, no MPI; the records' matrices are regenerated, pde500 needs
# about 12 GB of memory and a minute). Writes scaling_double.svg, scaling_float.svg,
# model_vs_measured.txt and model_vs_measured.json here.
set -euo pipefail
cd "$(dirname "$0")"
B=${SPMVLAB:-../../../build/cli/spmvlab}
{
$B dist chart run_b/bench2_pde150_csr_nnz_double_ipc.json run_b/bench2_pde150_csr_nnz_double_host.json \
    run_b/bench2_pde400_csr_nnz_double_ipc.json run_b/bench2_pde400_csr_nnz_double_host.json \
    run_c/bench2_pde500_csr_nnz_double.json \
    run_b/bench2_powerlaw_csr_nnz_double_ipc.json run_b/bench2_powerlaw_csr_nnz_double_host.json \
    run_b/bench2_blocks5_csr_nnz_double_ipc.json \
    --svg scaling_double.svg --json-out model_vs_measured_double.json
$B dist chart run_b/bench2_pde150_csr_nnz_float_ipc.json run_b/bench2_pde150_csr_nnz_float_host.json \
    run_b/bench2_pde400_csr_nnz_float_ipc.json run_b/bench2_powerlaw_csr_nnz_float_ipc.json \
    run_b/bench2_blocks5_csr_nnz_float_ipc.json \
    --svg scaling_float.svg --json-out model_vs_measured_float.json
$B dist chart run_c/bench2_powerlaw_csr_rows_double.json run_c/bench2_blocks5_csr_rows_double.json \
    run_c/bench2_pde150_csr_metis_double.json run_c/bench2_blocks5_csr_metis_double.json \
    run_c/bench2_powerlaw_csr_metis_double.json \
    --svg scaling_partitions.svg --json-out model_vs_measured_partitions.json
} | tee model_vs_measured.txt
