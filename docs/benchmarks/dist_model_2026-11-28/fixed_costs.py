#!/usr/bin/env python3
"""The distributed model's fixed costs (lib/include/spmv/dist/model.hpp, "THE DISTRIBUTED
PRODUCT'S FIXED COSTS"), derived from the committed H200 records of pde150 (the FIT set):
dist_model_2026-11-28/ (1 and 2 GPUs), its x4/ (4 GPUs) and nccl_2026-11-28/ (1 and 2 GPUs, every
path; the records the device tool did not return are taken from its README's table).

For each record: T1 = the measured 1-GPU time of the same format (the 1-GPU dist bench median of
the same set; x4: the record's single-process baseline), comm = the model's halo terms (`dist
plan --fixed-costs off`, the slowest rank's comm), and per record
  vector fixed = vector - T1 / P - comm                      -> exchange_us (P = 2), neighbour_us (P = 4)
  sync         = (naive - vector) - model's (naive - vector) -> sync_us (median)
  first pass   = overlap - T1 / P - (model's overlap - vector + comm)   (P = 2, not host-staged)
  (task - overlap) / 2 on 4 GPUs                             -> handoff_us, from the records of
     the current task mode (spin-then-sleep hand-offs since 1c4f1dd: nccl_2026-11-28/
     x4_spin_1c4f1dd, SELL, cuda-ipc and nccl); the older x4/ records (sleeping hand-offs,
     373cb08) are printed beside them
Usage: fixed_costs.py [SPMVLAB]   (default build/cli/spmvlab; plan outputs in a temporary folder)
"""
import json, os, statistics as st, subprocess, sys, tempfile

TMP = tempfile.mkdtemp(prefix='fixed_costs_')
ROOT=os.path.dirname(os.path.abspath(__file__))+'/../../..'
SP=sys.argv[1] if len(sys.argv)>1 else ROOT+'/build/cli/spmvlab'
B=ROOT+'/docs/benchmarks/'
def plan(matrix,P,fmt,path,fixed='off',dev='H200'):
    fn=TMP+'/d_%s_%d_%s_%s_%s_%s.json'%(matrix.replace(':','').replace('=',''),P,fmt,path,fixed,dev)
    if not os.path.exists(fn):
        link='nvlink4' if path in('cuda-ipc','nccl') else 'host-shm'
        subprocess.run([SP,'dist','plan',matrix,'--gpu','--format',fmt,'--ranks',str(P),'--partition','nnz','--exchange',path,'--link',link,'--device',dev,'--scaling','none','--fixed-costs',fixed,'--json-out',fn],check=True,capture_output=True)
    return json.load(open(fn))
def med(f): return {m['mode']:m['median_us'] for m in json.load(open(B+f))['modes']}
def t1(f): m=med(f); return st.mean(m.values())
sets=[ # (record, T1 us, source)
 ('dist_model_2026-11-28/bench2_pde150_csr_cuda-ipc.json', t1('dist_model_2026-11-28/bench1_pde150_csr_cuda-ipc.json')),
 ('dist_model_2026-11-28/bench2_pde150_sell_cuda-ipc.json', t1('dist_model_2026-11-28/bench1_pde150_sell_cuda-ipc.json')),
 ('dist_model_2026-11-28/x4/bench4_pde150_csr_cuda-ipc.json', json.load(open(B+'dist_model_2026-11-28/x4/bench4_pde150_csr_cuda-ipc.json'))['modes'][0]['single_process_us']),
 ('dist_model_2026-11-28/x4/bench4_pde150_sell_cuda-ipc.json', json.load(open(B+'dist_model_2026-11-28/x4/bench4_pde150_sell_cuda-ipc.json'))['modes'][0]['single_process_us']),
]
for fmt in ('csr','sell'):
    for path in ("cuda-ipc","host-staged"):
        if not os.path.exists(B+"nccl_2026-11-28/bench_2_%s_%s.json"%(fmt,path)): continue
        sets.append(('nccl_2026-11-28/bench_2_%s_%s.json'%(fmt,path), t1('nccl_2026-11-28/bench_1_%s_host-staged.json'%fmt)))
# nccl-path records of pde150 exist only in the README table
nccl_readme={'sell':dict(vector=68.14,naive=83.52,overlap=65.75,task=66.52),'csr':dict(vector=89.80,naive=105.99,overlap=84.72,task=87.48)}
rows=[]
for f,T1 in sets:
    d=json.load(open(B+f)) if os.path.exists(B+f) else None
    rows.append((f,d['format'],d['ranks'],d['exchange_path'],med(f),T1))
rows.append(('nccl_2026-11-28/README.md (cuda-ipc, sell)','sell',2,'cuda-ipc',dict(vector=75.32,naive=105.72,overlap=73.03,task=67.10),t1('nccl_2026-11-28/bench_1_sell_host-staged.json')))
rows.append(('nccl_2026-11-28/README.md (host-staged, sell)','sell',2,'host-staged',dict(vector=117.78,naive=132.81,overlap=95.72,task=112.15),t1('nccl_2026-11-28/bench_1_sell_host-staged.json')))
for fmt in ('sell','csr'):
    rows.append(('nccl_2026-11-28/README.md (nccl, %s)'%fmt,fmt,2,'nccl',nccl_readme[fmt],t1('nccl_2026-11-28/bench_1_%s_host-staged.json'%fmt)))
E={};S=[];F=[];H=[];N=[]
for f,fmt,P,path,m,T1 in rows:
    p=plan('gen:pde:size=150',P,fmt,path)
    comm=max(r['phases_us']['comm'] for r in p['per_rank'])
    po=p['predicted_us']
    ex=m['vector']-T1/P-comm
    sync=(m['naive']-m['vector'])-(po['naive']-po['vector'])
    first=m['overlap']-T1/P-(po['overlap']-po['vector']+comm)
    print('%-62s P=%d %-11s T1/P %6.1f comm %5.1f | vector-fixed %5.1f  sync %5.1f  first-pass %5.1f  (task-overlap)/2 %5.1f'%(f,P,path,T1/P,comm,ex,sync,first,(m['task']-m['overlap'])/2))
    S.append(sync)
    if P==2: E.setdefault(path,[]).append(ex); 
    if P==2 and path!='host-staged': F.append(first)
    if P==4: N.append(ex); H.append((m['task']-m['overlap'])/2)
print('exchange_us per path (P=2):',{k:(round(st.mean(v),1),[round(x,1) for x in v]) for k,v in E.items()})
print('P=4 ipc vector fixed',[round(x,1) for x in N],'-> neighbour_us',round(st.mean(N)-st.mean(E['cuda-ipc']),1))
print('sync_us median',round(st.median(S),1),sorted(round(x,1) for x in S))
print('first_pass_us median',round(st.median(F),1),sorted(round(x,1) for x in F))
print('handoff_us',round(st.mean(H),1),[round(x,1) for x in H])
spin={}
for path in ('cuda-ipc','nccl'):
    m=med('nccl_2026-11-28/x4_spin_1c4f1dd/bench_4_sell_%s.json'%path)
    spin[path]=(m['task']-m['overlap'])/2
print('handoff_us since the spin hand-offs (x4_spin_1c4f1dd, SELL, 4 GPUs):',{k:round(v,1) for k,v in spin.items()},'(x4/ before them:',round(st.mean(H),1),')')
