# SELL's threads per block, 256 / 128 / 64 (SPMV_SELL_BLOCK), per matrix, precision and variant:
# the median over both rounds of each run's median (us), and 128 / 256 (python3 summary.py, here).
import json, lzma, statistics as st

def runs(fm, m, p, b):
    v = []
    for r in '12':
        for x in json.load(lzma.open(f'b{b}_r{r}.json.xz'))['results']:
            if m in x['matrix'] and x['precision'] == p and x['format'] == fm and x.get('median_ms'):
                v.append(x['median_ms'] * 1000)
    return v

mats = ('blocks5:block-rows=100000', 'blocks5:block-rows=60000', 'pde:size=100', 'pde:size=150',
        'powerlaw:rows=1000000')
for fm in ('sell_i16', 'sell', 'pjds', 'cusparse_sell'):
    for m in mats:
        for p in ('double', 'single'):
            t = {b: runs(fm, m, p, b) for b in ('256', '128', '64')}
            if not t['256']:
                continue
            med = {b: st.median(v) for b, v in t.items()}
            print(f"{fm:14s} {m:26s} {p:6s} " + "  ".join(
                f"{b}: {med[b]:7.2f} ({' '.join(f'{x:.2f}' for x in t[b])})" for b in t) +
                f"  128/256 {med['128'] / med['256']:.4f}")
