# Compares ttp-roofline's params, GFLOPs, data moved and compute spec with TraceLens's
# roofline sheets. Usage: check.py ORACLE_DIR [DATA_DIR]
# Without DATA_DIR, records are made from each sheet row's own arguments (Input
# Dims_first, Input type_first, Input Strides_first, Concrete Inputs_first, the kernel
# names); with it, each run's trace goes through ttp-parse | ttp-roofline and every
# row's op is looked up by UID_first.
import ast, csv, glob, json, os, subprocess, sys

csv.field_size_limit(sys.maxsize)

def lit(s):
    try:
        return ast.literal_eval(s)
    except Exception:
        return s

def norm(v):
    if isinstance(v, (list, tuple)):
        return tuple(norm(x) for x in v)
    return v

def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))

def trace_of(oracle, data, run):
    args = json.loads(open(os.path.join(oracle, run, 'cmd.txt')).read().splitlines()[1])
    name = args[args.index('--profile_json_path') + 1]
    prefix = run.split('_')[0]
    for sub in (prefix, 'inference', '*'):
        hits = glob.glob(os.path.join(data, 'pytorch', sub, name))
        if hits:
            return hits[0]
    return None

def parsed(trace):
    p = subprocess.run('ttp-parse "%s" | ttp-roofline' % trace, shell=True,
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None
    recs = {}
    for line in p.stdout.splitlines():
        r = json.loads(line)
        if r.get('kind') == 'op':
            recs[r['id']] = r
    return recs

def rows_of(oracle):
    for f in sorted(glob.glob(os.path.join(oracle, '*', '*.csv'))):
        with open(f, newline='') as fp:
            rows = list(csv.DictReader(fp))
        if not rows or not any(k.startswith('param: ') for k in rows[0]):
            continue
        yield os.path.relpath(f, oracle), rows

def record_from_row(row):
    dims = lit(row['Input Dims_first'])
    types = lit(row['Input type_first'])
    strides = lit(row['Input Strides_first'])
    values = lit(row['Concrete Inputs_first'])
    ins = []
    for i, d in enumerate(dims):
        ins.append({'shape': d, 'dtype': types[i], 'strides': strides[i], 'value': values[i]})
    kern = [{'name': k['name'], 'start_ns': i}
            for i, k in enumerate(lit(row['kernel_details__summarize_kernel_stats']) or [])]
    return {'kind': 'op', 'trace': 'kineto', 'id': int(row['UID_first']),
            'op': row['name'], 'in': ins, 'kernels': kern}

def compare(sheet, i, row, rec, bad):
    where = '%s row %d (%s)' % (sheet, i + 2, row['name'])
    if 'model_error' in rec:
        bad.append('%s: model error: %s' % (where, rec['model_error']))
        return
    params = rec.get('params')
    if params is None:
        bad.append('%s: no params' % where)
        return
    want = [k[7:] for k in row if k.startswith('param: ')]
    got = [k for k in params if ('param: ' + k) in row]
    if got != [k for k in want if k in params] or set(want) - set(params):
        bad.append('%s: param keys %s, want %s' % (where, list(params), want))
    for k in want:
        cell = row['param: ' + k]
        if cell == '' or k not in params:
            continue
        w, g = norm(lit(cell)), norm(params[k])
        if isinstance(w, float) and isinstance(g, (int, float)) and not isinstance(g, bool):
            ok = close(g, w)
        else:
            ok = w == g and type(w) == type(g)
        if not ok:
            bad.append('%s: param %s = %r, want %r' % (where, k, g, w))
    gf = rec.get('flops', 0) / 1e9
    if not close(gf, float(row['GFLOPS_first'])):
        bad.append('%s: GFLOPS %r, want %s' % (where, gf, row['GFLOPS_first']))
    dm = row['Data Moved (MB)_first']
    if dm != '' and (rec.get('bytes') is None or not close(rec['bytes'] / 1048576, float(dm))):
        bad.append('%s: data moved %r, want %s' % (where, rec.get('bytes'), dm))
    if rec.get('compute_spec') != row['Compute Spec']:
        bad.append('%s: compute spec %r, want %r' % (where, rec.get('compute_spec'),
                                                    row['Compute Spec']))

def main():
    oracle = sys.argv[1]
    data = sys.argv[2] if len(sys.argv) > 2 else None
    traces = {}
    bad = []
    for sheet, rows in rows_of(oracle):
        if data is not None:
            run = sheet.split('/')[0]
            if run not in traces:
                t = trace_of(oracle, data, run)
                traces[run] = parsed(t) if t else None
            recs = traces[run]
            if recs is None:
                bad.append('%s: no trace, or ttp-parse | ttp-roofline failed' % sheet)
                continue
        if data is None:
            inp = ''.join(json.dumps(record_from_row(r)) + '\n' for r in rows)
            out = subprocess.run(['ttp-roofline'], input=inp, capture_output=True,
                                 text=True)
            if out.returncode != 0:
                bad.append('%s: ttp-roofline failed: %s' % (sheet, out.stderr))
                continue
            got = [json.loads(l) for l in out.stdout.splitlines()]
        else:
            got = [recs.get(int(r['UID_first']), {}) for r in rows]
        n = len(bad)
        for i, (row, rec) in enumerate(zip(rows, got)):
            compare(sheet, i, row, rec, bad)
        print('%s: %d rows, %d disagree' % (sheet, len(rows), len(bad) - n))
    for b in bad:
        print(b)
    return 1 if bad else 0

sys.exit(main())
