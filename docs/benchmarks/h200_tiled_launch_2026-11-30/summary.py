# csr_tiled against cuSPARSE CSR ALG1 per SPMV_TILED_EXP mask (python3 summary.py, run here):
# medians over the rounds of csr_tiled's and ALG1's medians, and of their ratio within each run.
import json,glob,lzma,statistics as st,collections,sys
# per mask, matrix, precision: csr_tiled median us per run, cusparse alg1 per run, ratio tiled/cus
d=collections.defaultdict(list)
for f in sorted(glob.glob('m*_large*.json.xz')):
    m=f.split('_')[0][1:]; r=f.split('large')[1].split('.')[0]
    J=json.load(lzma.open(f))
    res=J['results'] if 'results' in J else J
    t={}
    for x in res:
        if x.get('median_ms') is None: continue
        t[(x['matrix'],x['precision'],x['format'])]=x['median_ms']*1000
    for (mat,p,fm),v in t.items():
        if fm=='csr_tiled':
            c=t.get((mat,p,'cusparse_csr_alg1'))
            d[(mat[:45],p,m)].append((v,c))
for k in sorted(d):
    v=d[k]
    print(f"{k[0]:46s} {k[1]:6s} mask {k[2]}: tiled med {st.median(a for a,b in v):7.2f}  cus med {st.median(b for a,b in v):7.2f}  ratio med {st.median(a/b for a,b in v):.4f}  runs {' '.join(f'{a:.1f}' for a,b in v)}")
