# own / fastest cuSPARSE per run file: speedup = best cuSPARSE median / csr_tiled median
import json, glob, os, sys
def load(p):
    d = json.load(open(p)); out = {}
    for r in d['results']:
        out[(r['matrix'], r['precision'], r['format'])] = r['median_ms'] * 1000
    return out
for pat in sys.argv[1:]:
    rows = {}
    for p in sorted(glob.glob(pat)):
        name = os.path.basename(p)[:-5]
        x = load(p)
        for (m, pr, f), us in x.items():
            if f != 'csr_tiled':
                continue
            base = {ff: u for (mm, pp, ff), u in x.items() if mm == m and pp == pr and ff.startswith('cusparse')}
            bf = min(base, key=base.get)
            rows.setdefault((m, pr), []).append(f"{name}: {us:.1f} vs {bf} {base[bf]:.1f} = {base[bf]/us:.3f}")
    for k, v in sorted(rows.items()):
        print(k[0], k[1]); [print('   ', s) for s in v]
