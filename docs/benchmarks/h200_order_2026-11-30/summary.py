#!/usr/bin/env python3
"""Median time (us) and share of the copy roof of every variant x matrix x precision in the
`spmvlab bench --json-out` records of a folder (*.json or *.json.xz), one column per record.
    python3 summary.py full_sort > full_sort/summary.txt"""
import collections
import glob
import json
import lzma
import os
import sys

folder = sys.argv[1] if len(sys.argv) > 1 else '.'
table = collections.defaultdict(dict)
for path in sorted(glob.glob(os.path.join(folder, '*.json*'))):
    name = os.path.basename(path).split('.json')[0]
    opener = lzma.open if path.endswith('.xz') else open
    with opener(path, 'rt') as f:
        record = json.load(f)
    for r in record['results']:
        if r.get('error'):
            continue
        key = (r['matrix'].removeprefix('gen:'), r['format'], r['precision'])
        table[key][name] = (r['median_ms'] * 1000, r['fraction_of_copy_bandwidth'] * 100)
columns = sorted({c for row in table.values() for c in row})
print(f"{'matrix':46} {'variant':14} {'prec':6} " + ' '.join(f'{c:>17}' for c in columns))
for (m, v, p), row in sorted(table.items()):
    cells = ' '.join(f'{row[c][0]:9.2f} {row[c][1]:6.1f}%' if c in row else ' ' * 17
                     for c in columns)
    print(f'{m[:46]:46} {v:14} {p:6} {cells}')
