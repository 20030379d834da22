#!/usr/bin/env python3
"""Model / measured per mode for the pde150 distributed records on the H200 (the fit set of the
fixed costs, and the 4-GPU records of the current task mode, x4_spin), with the built-in
constants of the spmvlab given (default build/cli/spmvlab): `dist plan` with the record's
format, ranks, exchange path, --device H200, --link nvlink4 (host-shm for host-staged) and the
fixed costs on (auto) and off. Prints one row per record; * marks a ratio outside 25 %.
Usage: model_vs_records.py [SPMVLAB]"""
import json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.abspath(__file__)) + '/../../..'
SP = sys.argv[1] if len(sys.argv) > 1 else ROOT + '/build/cli/spmvlab'
B = ROOT + '/docs/benchmarks/'
TMP = tempfile.mkdtemp(prefix='model_vs_records_')
MODES = ('vector', 'naive', 'overlap', 'task')


def plan(P, fmt, path, fixed):
    fn = '%s/%d_%s_%s_%s.json' % (TMP, P, fmt, path, fixed)
    link = 'host-shm' if path == 'host-staged' else 'nvlink4'
    subprocess.run([SP, 'dist', 'plan', 'gen:pde:size=150', '--gpu', '--format', fmt, '--ranks',
                    str(P), '--partition', 'nnz', '--exchange', path, '--link', link,
                    '--device', 'H200', '--scaling', 'none', '--fixed-costs', fixed,
                    '--json-out', fn], check=True, capture_output=True)
    return json.load(open(fn))['predicted_us']


def medians(f):
    return {m['mode']: m['median_us'] for m in json.load(open(B + f))['modes']}


records = [
    ('dist_model_2026-11-28/bench1_pde150_csr_cuda-ipc.json', 1, 'csr', 'cuda-ipc'),
    ('dist_model_2026-11-28/bench1_pde150_sell_cuda-ipc.json', 1, 'sell', 'cuda-ipc'),
    ('dist_model_2026-11-28/bench2_pde150_csr_cuda-ipc.json', 2, 'csr', 'cuda-ipc'),
    ('dist_model_2026-11-28/bench2_pde150_sell_cuda-ipc.json', 2, 'sell', 'cuda-ipc'),
    ('dist_model_2026-11-28/x4/bench4_pde150_csr_cuda-ipc.json', 4, 'csr', 'cuda-ipc'),
    ('dist_model_2026-11-28/x4/bench4_pde150_sell_cuda-ipc.json', 4, 'sell', 'cuda-ipc'),
    ('nccl_2026-11-28/bench_2_csr_cuda-ipc.json', 2, 'csr', 'cuda-ipc'),
    ('nccl_2026-11-28/bench_2_csr_host-staged.json', 2, 'csr', 'host-staged'),
    ('nccl_2026-11-28/x4_spin_1c4f1dd/bench_4_sell_cuda-ipc.json', 4, 'sell', 'cuda-ipc'),
    ('nccl_2026-11-28/x4_spin_1c4f1dd/bench_4_sell_nccl.json', 4, 'sell', 'nccl'),
]
print('%-58s %-5s %-11s ' % ('record', 'fmt', 'path') +
      ' '.join('%-15s' % m for m in MODES) + '  (model / measured: fixed costs off -> on)')
for f, P, fmt, path in records:
    if not os.path.exists(B + f):
        print('%-58s missing' % f)
        continue
    m = medians(f)
    off, on = plan(P, fmt, path, 'off'), plan(P, fmt, path, 'auto')
    def mark(r):  # outside 25 %: model / measured below 0.75 or above 1.25 (as rounded)
        return '*' if round(r, 2) < 0.75 or round(r, 2) > 1.25 else ' '

    cells = []
    for mode in MODES:
        a, b = off[mode] / m[mode], on[mode] / m[mode]
        cells.append('%.2f%s-> %.2f%s' % (a, mark(a), b, mark(b)))
    print('%-58s %-5s %-11s %s' % (f, fmt, path, ' '.join('%-15s' % c for c in cells)))
