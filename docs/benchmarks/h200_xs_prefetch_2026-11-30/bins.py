#!/usr/bin/env python3
"""new / old time of ell_xs and sell_xs in an A/B folder, by the matrix's longest row and its
column count, raw and after cuSPARSE SELL's new / old (the drift of the machine).
Usage: python3 bins.py ABDIR MTXDIR   (MTXDIR: the .mtx files, for the longest row)"""
import json, lzma, os, statistics as st, sys
d=sys.argv[1]
R=sorted({int(f.split("_")[1].split(".")[0]) for f in os.listdir(d) if f.startswith("old_") and f.endswith(".json.xz")})
def load(n):
    t={};info={}
    for r in json.load(lzma.open(os.path.join(d,n+".json.xz")))["results"]:
        if not r["error"] and r["median_ms"]:
            t[(r["matrix"],r["precision"],r["format"])]=r["median_ms"]*1e3; info[r["matrix"]]=(r["rows"],r["cols"],r["nnz"])
    return t,info
runs={};info={}
for t in("old","new"):
    for r in R:
        runs[(t,r)],i=load(f"{t}_{r}"); info.update(i)
# longest row from the matrices
import collections
W={}
for m in info:
    pass
mt=sys.argv[2]
for f in [f for f in os.listdir(mt) if f.endswith(".mtx")]:
    L=open(os.path.join(mt,f)).readlines()
    hdr=L[0]; body=[l for l in L if not l.startswith('%')]
    n=int(body[0].split()[0]); c=collections.Counter()
    if 'complex' in hdr: continue
    for l in body[1:]:
        x=l.split()
        if len(x)<2: continue
        i,j=int(x[0]),int(x[1]); c[i]+=1
        if ('symmetric' in hdr or 'hermitian' in hdr) and i!=j: c[j]+=1
    W[f]=max(c.values()) if c else 0
keys=[k for k in runs[("old",1)] if all(k in v for v in runs.values())]
best=lambda t,k:min(runs[(t,r)][k] for r in R)
def adj(k):
    s=(k[0],k[1],"cusparse_sell")
    return best("new",k)/best("old",k)/(best("new",s)/best("old",s))
def raw(k): return best("new",k)/best("old",k)
bins=collections.defaultdict(list)
for k in keys:
    if k[2]=="cusparse_sell": continue
    m=k[0]; w=W.get(m,-1); c=info[m][1]
    cb="cols<=128" if c<=128 else "cols 129-512" if c<=512 else "cols>512"
    wb="w<=8" if w<=8 else "w 9-16" if w<=16 else "w>16"
    bins[(k[2],wb,cb)].append((raw(k),adj(k)))
print("| kernel | longest row | columns | cases | new/old raw | after drift |")
for b in sorted(bins):
    v=bins[b]
    print(f"| {b[0]} | {b[1]} | {b[2]} | {len(v)} | {st.median(x[0] for x in v):.3f} | {st.median(x[1] for x in v):.3f} |")
