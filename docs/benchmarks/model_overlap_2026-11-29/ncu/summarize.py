#!/usr/bin/env python3
"""One line per kernel of each ncu_<matrix>_<prec>.csv.xz here (its last profiled launch): the
counters scripts/experiments/s29.sh asked Nsight Compute for. Usage: python3 summarize.py"""
import csv, collections, glob, io, lzma, os, re

here = os.path.dirname(os.path.abspath(__file__))
names = {
    'gpu__time_duration.sum': ('us', 1e-3), 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum': ('L1 req k', 1e-3),
    'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': ('L1 sect k', 1e-3), 'l1tex__t_sector_hit_rate.pct': ('L1 hit %', 1),
    'lts__t_sectors_srcunit_tex_op_read.sum': ('L2 sect k', 1e-3), 'lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum': ('L2 hit k', 1e-3),
    'dram__bytes_read.sum': ('DRAM MB', 1e-6), 'sm__warps_active.avg.pct_of_peak_sustained_active': ('occup %', 1),
    'smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct': ('stall ld %', 1),
    'l1tex__data_pipe_lsu_wavefronts.sum': ('wavefr k', 1e-3), 'launch__grid_size': ('blocks', 1),
}
for f in sorted(glob.glob(os.path.join(here, 'ncu_*.csv.xz'))):
    rows = list(csv.reader(io.StringIO(lzma.open(f, 'rt').read())))
    head = next(i for i, r in enumerate(rows) if r and r[0] == 'ID')
    h = rows[head]
    ki, mi, vi, ii = h.index('Kernel Name'), h.index('Metric Name'), h.index('Metric Value'), h.index('ID')
    launches = collections.OrderedDict()
    for r in rows[head + 1:]:
        launches.setdefault(r[ii], {'kernel': r[ki]})[r[mi]] = r[vi]
    last = collections.OrderedDict()
    for d in launches.values():
        k = re.sub(r'\(.*', '', d['kernel']).replace('void ', '').replace('(anonymous namespace)::', '')
        last[k] = d
    print('==', os.path.basename(f))
    print('%-48s' % 'kernel' + ''.join('%11s' % n for n, _ in names.values()))
    for k, d in last.items():
        vals = ''.join('%11.1f' % (float(d.get(m, 'nan').replace(',', '')) * s) for m, (n, s) in names.items())
        print('%-48s' % k[:48] + vals)
