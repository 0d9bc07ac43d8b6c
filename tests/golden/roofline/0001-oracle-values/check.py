# SPDX-License-Identifier: ISC
# Compares ttp-roofline's compatible keys with tt-perf-report's --csv output, by op ID:
# OP Code, Bound, DRAM, DRAM %, FLOPs, FLOPs %, Math Fidelity, DRAM Sharded, program
# config, Cores (report_cores), Advice. Floats as Python repr (= num_shortest); the
# advice's "currently using 32.0" is D6. Usage: check.py RECORDS ORACLE_CSV NAME
import csv, json, re, sys

recs = {}
for line in open(sys.argv[1], encoding='utf-8'):
    o = json.loads(line)
    if o.get('kind') == 'op':
        recs[o['id']] = o

def cell(v):
    if v is None:
        return ''
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    return str(v)

n = bad = 0
for row in csv.DictReader(open(sys.argv[2], newline='', encoding='utf-8')):
    if row['OP Code'].endswith(' (signpost)'):
        continue
    o = recs.get(int(row['ID']))
    if o is None:
        print('ID %s: no record' % row['ID'])
        bad += 1
        continue
    n += 1
    pairs = [('OP Code', o.get('label', '')), ('Bound', o.get('bound', '')),
             ('DRAM', cell(o.get('dram_gbps'))), ('DRAM %', cell(o.get('dram_pct'))),
             ('FLOPs', cell(o.get('tflops'))), ('FLOPs %', cell(o.get('flops_pct'))),
             ('Math Fidelity', o.get('math', '')), ('DRAM Sharded', cell(o.get('dram_sharded'))),
             ('Inner Dim Block Size', cell(o.get('in0_block_w'))),
             ('Output Subblock H', cell(o.get('out_subblock_h'))),
             ('Output Subblock W', cell(o.get('out_subblock_w')))]
    if 'report_cores' in o:
        pairs.append(('Cores', str(o['report_cores'])))
    if 'Advice' in row:
        row['Advice'] = re.sub(r'currently using (\d+)\.0\)', r'currently using \1)', row['Advice'])
        pairs.append(('Advice', ' \u2022 '.join(o.get('advice', []))))
    for k, got in pairs:
        if row[k] != got:
            bad += 1
            if bad <= 10:
                print('ID %s %s: want %r, got %r' % (row['ID'], k, row[k], got))
print('%s: %d ops, %d differences' % (sys.argv[3], n, bad))
