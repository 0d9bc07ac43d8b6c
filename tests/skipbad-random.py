#!/usr/bin/env python3
# skipbad-random.py [--seed S] [--trials N] [--only|--except BAD,...] STREAM STAGE...:
# issue 24's "--skip-bad" promise on real record streams: the good records of STREAM
# come out of each STAGE (a command line, e.g. "ttp-filter --no-merge-devices")
# unchanged whatever bad records are mixed in. Each trial puts 1 to 4 bad records,
# drawn from a catalogue of records that are bad wherever they stand (text cut short,
# an id that is not an integer, a kind or trace that is not a string, a non-object, a
# second trace record, a signpost the trace record does not announce, ...; most made
# from the stream's own records), at random places; the stage run with --skip-bad on
# the mixed stream must exit 0, write exactly what it writes on STREAM alone, and say it
# skipped that many bad records. The trials are the seed's, so a run repeats exactly
# (--only, --except: those kinds of bad record alone, or all but those). One line per
# stage: "ok" or the first trial that differed and what was put where.
import json, random, subprocess, sys

args = sys.argv[1:]
seed, trials, only, but = 24, 8, None, []
while args and args[0].startswith('--'):
    if args[0] == '--seed':
        seed = int(args[1])
    elif args[0] == '--trials':
        trials = int(args[1])
    elif args[0] == '--only':
        only = args[1].split(',')
    elif args[0] == '--except':
        but = args[1].split(',')
    else:
        sys.exit('usage: skipbad-random.py [--seed S] [--trials N] [--only BAD,...] [--except BAD,...] STREAM STAGE...')
    args = args[2:]
if len(args) < 2:
    sys.exit('usage: skipbad-random.py [--seed S] [--trials N] STREAM STAGE...')
stream, stages = args[0], args[1:]
lines = open(stream, encoding='utf-8').read().splitlines()
recs = [json.loads(l) for l in lines]
trace = [i for i, r in enumerate(recs) if r.get('kind') == 'trace']
withid = [i for i, r in enumerate(recs) if isinstance(r.get('id'), int)]
if not trace or not withid:
    sys.exit('skipbad-random.py: %s: no trace record or no record with an id' % stream)


def dump(r):
    return json.dumps(r, separators=(',', ':'), ensure_ascii=False)


def with_(r, **kw):
    r = dict(r)
    r.update(kw)
    return r


# each maker: (name, rng -> text of one bad record)
def cut(rng):
    t = lines[rng.choice(withid)]
    return t[:rng.randrange(1, len(t) - 1)]


MAKERS = [
    ('cut', cut),
    ('id-string', lambda rng: dump(with_(recs[rng.choice(withid)], id='x'))),
    ('id-real', lambda rng: dump(with_(recs[rng.choice(withid)], id=1.5))),
    ('id-huge', lambda rng: lines[rng.choice(withid)].replace('"id":', '"id":1e30,"x":', 1)),
    ('kind-number', lambda rng: dump(with_(recs[rng.choice(withid)], kind=7))),
    ('trace-number', lambda rng: dump(with_(recs[rng.choice(withid)], trace=7))),
    ('stray-signpost', lambda rng: dump(with_(recs[rng.choice(withid)], kind='signpost',
                                               name='stray signpost'))),
    ('array', lambda rng: '[' + lines[rng.choice(withid)] + ']'),
    ('string', lambda rng: '"op"'),
    ('nan', lambda rng: lines[rng.choice(withid)].replace('"id":', '"id":NaN,"x":', 1)),
    ('trace-copy', lambda rng: lines[trace[0]]),
]


def run(cmd, data):
    p = subprocess.run(['sh', '-c', cmd], input=data.encode(), capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode(errors='replace')


def skip_bad(stage):
    w = stage.split(' ', 1)
    return w[0] + ' --skip-bad' + (' ' + w[1] if len(w) > 1 else '')


MAKERS = [m for m in MAKERS if (only is None or m[0] in only) and m[0] not in but]
rng = random.Random(seed)
plans = []
for t in range(trials):
    k = rng.randint(1, 4)
    bad = []
    for _ in range(k):
        name, make = MAKERS[rng.randrange(len(MAKERS))]
        # a second trace record is bad only after the first
        at = rng.randint(trace[0] + 1 if name == 'trace-copy' else 0, len(lines))
        bad.append((at, name, make(rng)))
    bad.sort(key=lambda b: b[0])
    out, j = [], 0
    for i in range(len(lines) + 1):
        while j < len(bad) and bad[j][0] == i:
            out.append(bad[j][2])
            j += 1
        if i < len(lines):
            out.append(lines[i])
    plans.append(('\n'.join(out) + '\n', bad))

clean_text = '\n'.join(lines) + '\n'
status = 0
for stage in stages:
    rc, clean, err = run(stage, clean_text)
    if rc != 0:
        print('%s: the clean stream fails (exit %d): %s' % (stage, rc, err.strip()[-200:]))
        status = 1
        continue
    res = 'ok (%d trials)' % trials
    for t, (text, bad) in enumerate(plans):
        rc, out, err = run(skip_bad(stage), text)
        n = len(bad)
        want = 'skipped %d bad record%s' % (n, '' if n == 1 else 's')
        why = None
        if rc != 0:
            why = 'exit %d: %s' % (rc, err.strip().splitlines()[-1] if err.strip() else '')
        elif out != clean:
            why = 'output differs'
        elif not err.rstrip().endswith(want):
            why = 'said %r, not %r' % (err.strip().splitlines()[-1] if err.strip() else '', want)
        if why:
            res = 'trial %d (%s): %s' % (t, ', '.join('%s at %d' % (b[1], b[0]) for b in bad), why)
            status = 1
            break
    print('%s: %s' % (stage, res))
sys.exit(status)
