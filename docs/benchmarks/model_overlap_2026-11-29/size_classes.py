#!/usr/bin/env python3
"""Median and mean |ln(predicted / measured)| of every measured variant, by the matrix's nonzeros,
under two sets of constants: two `spmvlab recommend --json --top 30 --bench RECORDS...` outputs
of the same matrices and records. Usage: size_classes.py BEFORE.json AFTER.json"""
import json, math, statistics, collections, sys


def load(f):
    out = {}
    for r in json.load(open(f))['results']:
        for v in r['ranking']:
            if v.get('measured_us') is not None:
                out[(r['matrix'], r['precision'], v['variant'])] = (r['nnz'], v['predicted_us'], v['measured_us'])
    return out


a, b = load(sys.argv[1]), load(sys.argv[2])
cls = collections.defaultdict(lambda: ([], []))
for k, (nnz, pa, m) in a.items():
    c = 'nnz < 5e3' if nnz < 5e3 else 'nnz < 5e4' if nnz < 5e4 else 'nnz < 5e5' if nnz < 5e5 else 'nnz >= 5e5'
    cls[c][0].append(abs(math.log(pa / m)))
    cls[c][1].append(abs(math.log(b[k][1] / m)))
print('%-11s %8s %14s %14s %14s %14s' % ('class', 'samples', 'before median', 'before mean', 'after median', 'after mean'))
for c in ('nnz < 5e3', 'nnz < 5e4', 'nnz < 5e5', 'nnz >= 5e5'):
    x, y = cls[c]
    print('%-11s %8d %14.4f %14.4f %14.4f %14.4f' % (c, len(x), statistics.median(x), statistics.mean(x),
                                                    statistics.median(y), statistics.mean(y)))
