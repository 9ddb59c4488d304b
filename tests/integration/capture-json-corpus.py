#!/usr/bin/env python3
# capture-json-corpus.py - every numeric field of a raw capture's capture.json set to
# values out of its range or out of step with the rest of the capture, one at a time:
# `deferbench analyze` must refuse each (exit 1) with a message naming the field (or
# the field it contradicts). A value that passes would be a figure silently changed.
#
#   capture-json-corpus.py DEFERBENCH CAPTURE_DIR WORK_DIR
#
# Prints one line per case that is not refused as it should be and a summary (cases,
# refused, by field); exits 1 if any case failed.
import copy
import json
import os
import shutil
import subprocess
import sys

NAN = float('nan')
INF = float('inf')
BIG = 1 << 64          # one more than any uint64
HUGE = 1e308


def cases(m):
    """(description, path, value, names): names are the fields a refusal may name"""
    start, end = m['start_ts'], m['end_ts']
    dur = end - start
    hour = 3600 * 10**9
    num = [-1, NAN, INF, BIG, HUGE, 1.5, '7', None]
    out = []

    def add(path, values, names=None):
        for v in values:
            out.append((path, v, names or [path.split('.')[-1]]))

    add('cpus', num + [0, 8193, 100000])
    add('cpus', [1], ['loss'])                       # fewer CPUs than loss entries
    add('subbuf_size', num + [0, 4097, 6144, 1 << 21])
    add('subbuf_size', [8192], ['header_page', 'subbuf_size'])   # the pages say 4096
    add('start_ts', num)
    add('start_ts', [end + 1], ['end_ts', 'start_ts'])
    # the interval origin lies within an interval before start_ts: it says so first
    add('start_ts', [start - hour, start - 60 * 10**9], ['start_ts', 'interval_origin_ns'])
    add('end_ts', num)
    add('end_ts', [start - 1], ['end_ts'])
    # the case: end_ts an hour later made duration_s 3600.81 and rates / 4400
    add('end_ts', [end + hour, end + 60 * 10**9, end + 20 * 10**9], ['end_ts'])
    add('interval_ns', num + [1, 9999999])
    add('interval_origin_ns', num + [start + 1, start - 2 * m['interval_ns']])
    add('buffer_kb', num + [0, 63, (1 << 20) + 1, 1 << 32])
    add('capture_cpu_s', [-1, NAN, INF, BIG, HUGE, '7', None, 1e6])
    add('command_status.exit', num + [256])
    add('loss', [[]], ['loss'])
    for k in ('entries', 'overrun', 'commit_overrun', 'dropped', 'read_events'):
        # more than one event per nanosecond of the capture (and a second more)
        add('loss.0.' + k, num + [dur + 10**9 + 1, 10**18])
    return out


def put(meta, path, value):
    keys = path.split('.')
    o = meta
    for k in keys[:-1]:
        o = o[int(k)] if isinstance(o, list) else o[k]
    last = keys[-1]
    if isinstance(o, list):
        o[int(last)] = value
    else:
        o[last] = value


def dump(meta):
    # NaN and Infinity as json-c reads them; BIG as a bare integer
    return json.dumps(meta, allow_nan=True)


def main():
    db, cap, work = sys.argv[1:4]
    work_cap = os.path.join(work, 'cap')
    shutil.rmtree(work_cap, ignore_errors=True)
    shutil.copytree(cap, work_cap, symlinks=True)
    path = os.path.join(work_cap, 'raw', 'capture.json')
    orig = json.load(open(path))
    out = os.path.join(work, 'out')
    shutil.rmtree(out, ignore_errors=True)
    r = subprocess.run([db, 'analyze', work_cap, '-o', out], capture_output=True, text=True,
                       timeout=60)
    if r.returncode != 0:
        print('corpus: the capture itself does not analyze:', r.stderr.strip())
        return 1
    shutil.rmtree(out)
    failed = 0
    by_field = {}
    all_cases = cases(orig)
    for path_, value, names in all_cases:
        meta = copy.deepcopy(orig)
        put(meta, path_, value)
        with open(path, 'w') as f:
            f.write(dump(meta))
        r = subprocess.run([db, 'analyze', work_cap, '-o', out], capture_output=True,
                           text=True, timeout=60)
        shutil.rmtree(out, ignore_errors=True)
        msg = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ''
        field = path_.split('.')[0]
        by_field.setdefault(field, [0, 0])
        by_field[field][0] += 1
        ok = r.returncode == 1 and any(("'%s" % n) in msg or (" %s " % n) in msg or
                                       ('.%s' % n) in msg or ('/%s' % n) in msg
                                       for n in names)
        if ok:
            by_field[field][1] += 1
        else:
            failed += 1
            print('corpus: FAIL %s = %r: exit %d: %s' % (path_, value, r.returncode,
                                                      msg or '(no message)'))
    with open(path, 'w') as f:
        f.write(dump(orig))
    print('corpus: %d cases, %d refused with the field named, %d not' %
          (len(all_cases), len(all_cases) - failed, failed))
    print('corpus: by field: ' + ', '.join('%s %d/%d' % (k, v[1], v[0])
                                           for k, v in sorted(by_field.items())))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
