import re,sys
for fn in sys.argv[1:]:
    s=open(fn).read()
    parts=re.split(r'\t\tFunction : ',s)[1:]
    for p in parts:
        name=re.search(r'xs_spmv_kernelI(\w+?)EEv',p).group(1)
        lines=[]
        for l in p.splitlines():
            m=re.search(r'/\*([0-9a-f]{4})\*/\s+(.*?);',l)
            if m: lines.append((int(m.group(1),16),m.group(2).strip()))
        b=[i for i,(a,t) in enumerate(lines) if 'BAR.SYNC' in t][0]
        br=[i for i,(a,t) in enumerate(lines[:b]) if re.search(r'BRA 0x([0-9a-f]+)',t) and int(re.search(r'BRA 0x([0-9a-f]+)',t).group(1),16) < lines[i][0]]
        i=br[-1]; target=int(re.search(r'BRA 0x([0-9a-f]+)',lines[i][1]).group(1),16)
        body=[t for a,t in lines if target<=a<=lines[i][0]]
        seq=''.join('L' if 'LDG' in t else 'S' if 'STS' in t else '' for t in body)
        print(f"{fn:18s} {name:14s} stage loop {len(body)} instr; LDG/STS order: {seq}")
