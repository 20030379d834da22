# The _xs kernels before (ae40fa4, register staging) and after (e706318, cp.async staging) across
# the collection, both runs on two H200 of one host (a and b at once): per variant and precision,
# the change of its time relative to cuSPARSE SELL in the same run, (t/t_cuSPARSE_SELL at e706318)
# / (the same at ae40fa4), binned by x's size (cols x value bytes). csr_adaptive and ell did not
# change between the commits: their bins show the runs' drift. Run here: python3 xs_cpasync.py
import collections
import json
import lzma
import statistics as st


def load(d):
    t = {}
    for part in 'ab':
        for x in json.load(lzma.open(f'{d}/{part}/bench.json.xz'))['results']:
            if x.get('median_ms'):
                t[(x['matrix'], x['precision'], x['format'])] = (x['median_ms'], x['cols'])
    return t


old, new = load('at_ae40fa4'), load('at_e706318')
for fm in ('ell_xs', 'sell_xs', 'csr_adaptive', 'ell'):
    for p in ('double', 'single'):
        bins = collections.defaultdict(list)
        for k, (t, cols) in new.items():
            ref = (k[0], k[1], 'cusparse_sell')
            if k[2] != fm or k[1] != p or k not in old or ref not in old or ref not in new:
                continue
            xb = cols * (8 if p == 'double' else 4)
            b = 'x <= 2 KiB' if xb <= 2048 else ('2-8 KiB' if xb <= 8192 else '> 8 KiB')
            bins[b].append((t / new[ref][0]) / (old[k][0] / old[ref][0]))
        print(f'{fm:13s} {p:6s} ' + '   '.join(
            f'{b}: n={len(v)} median {st.median(v):.3f} min {min(v):.3f}'
            for b, v in sorted(bins.items())))
