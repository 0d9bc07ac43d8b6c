#!/usr/bin/env python3
# int-extremes.py BINDIR STREAM COMMAND...: issue 24's "integer arithmetic on input
# values checked for overflow", tried from the records' side. For every integer-valued
# key of STREAM's records (per record kind), the value is replaced by each of INT64_MAX,
# INT64_MIN, +-2^62, -1 and 0, in one record (the middle one that has it) and in all;
# each COMMAND (a shell command line reading the records on stdin, with BINDIR first on
# PATH) runs on the result. Meant for a build under UndefinedBehaviorSanitizer
# (-fsanitize=undefined -fno-sanitize-recover=all), where a wrapped signed sum is a
# "runtime error"; any build shows crashes. Prints one line per distinct finding
# (command, key, first sanitizer line); nothing when all held. Exit 1 on a finding.
import json, os, subprocess, sys

if len(sys.argv) < 4:
    sys.exit('usage: int-extremes.py BINDIR STREAM COMMAND...')
B, stream, cmds = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = open(stream, encoding='utf-8').read().splitlines()
recs = [json.loads(l) for l in lines]
keys = {}
for i, r in enumerate(recs):
    for k, v in r.items():
        if isinstance(v, int) and not isinstance(v, bool):
            keys.setdefault((str(r.get('kind')), k), []).append(i)
EXT = [2**63 - 1, -2**63, 2**62, -2**62, -1, 0]
env = dict(os.environ, PATH=os.path.abspath(B) + ':' + os.environ['PATH'],
           UBSAN_OPTIONS='halt_on_error=1', ASAN_OPTIONS='detect_leaks=0')
seen, found = set(), 0
for (kind, k), idx in sorted(keys.items()):
    for v in EXT:
        for mode in ('one', 'all'):
            sel = set(idx[len(idx) // 2:len(idx) // 2 + 1] if mode == 'one' else idx)
            out = [json.dumps(dict(recs[i], **{k: v}), separators=(',', ':'))
                   if i in sel else l for i, l in enumerate(lines)]
            data = ('\n'.join(out) + '\n').encode()
            for c in cmds:
                p = subprocess.run(['sh', '-c', c], input=data, env=env, capture_output=True)
                err = p.stderr.decode(errors='replace')
                if not (p.returncode >= 128 or p.returncode < 0 or 'runtime error' in err or
                        'Sanitizer' in err):
                    continue
                first = [x for x in err.splitlines()
                         if 'runtime error' in x or 'ERROR' in x][:1]
                sig = (c, kind, k, tuple(first))
                if sig in seen:
                    continue
                seen.add(sig)
                found += 1
                print('%s | %s.%s=%d (%s): rc=%d: %s' % (c, kind, k, v, mode, p.returncode,
                                                       ' '.join(first)[:300]), flush=True)
sys.exit(1 if found else 0)
