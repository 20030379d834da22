# Summary of the Nsight Compute CSVs of one folder (python3 ncu_summary.py, run inside it): one
# line per profiled launch, us = duration in microseconds, dramR/dramW MB, L2rd/L2wr/L1sect/L1req
# millions (sectors or requests), *% percent of peak, st* stall cycles per issued instruction.
import csv,glob,collections,io
short={'gpu__time_duration.sum':'us','dram__bytes_read.sum':'dramR','dram__bytes_write.sum':'dramW','dram__throughput.avg.pct_of_peak_sustained_elapsed':'dram%','lts__t_sectors_op_read.sum':'L2rd','lts__t_sector_op_read_hit_rate.pct':'L2hit','lts__throughput.avg.pct_of_peak_sustained_elapsed':'L2%','l1tex__t_sector_hit_rate.pct':'L1hit','l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum':'L1sect','l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum':'L1req','l1tex__throughput.avg.pct_of_peak_sustained_active':'L1%','sm__warps_active.avg.pct_of_peak_sustained_active':'occ%','smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio':'stLS','smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio':'stLG','smsp__average_warps_issue_stalled_drain_per_issue_active.ratio':'stDr','launch__registers_per_thread':'regs','launch__grid_size':'grid','launch__occupancy_limit_registers':'occlimR','lts__t_sectors_op_write.sum':'L2wr','smsp__inst_executed.sum':'inst'}
for f in sorted(glob.glob('*.csv')):
    lines=[l for l in open(f) if l.startswith('"')]
    rows=list(csv.DictReader(io.StringIO(''.join(lines))))
    per=collections.defaultdict(dict)
    for r in rows:
        key=(r['ID'],r['Kernel Name'][:40])
        per[key][r['Metric Name']]=(r['Metric Value'],r['Metric Unit'])
    for (i,k),m in per.items():
        out=[]
        for mn,s in short.items():
            if mn in m:
                v,u=m[mn]
                try:
                    x=float(v.replace(',',''))
                    if u in ('nsecond','ns'): x/=1000
                    if u=='msecond': x*=1000
                    if u in('byte',): x/=1e6
                    if u=='Kbyte': x/=1e3
                    if u=='Gbyte': x*=1e3
                    if s in('L2rd','L1sect','L1req','L2wr','inst'): x/=1e6
                    out.append(f"{s}={x:.3g}")
                except: out.append(f"{s}={v}")
        print(f[:-4], i, k, ' '.join(out))
