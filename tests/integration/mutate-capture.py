#!/usr/bin/env python3
# mutate-capture.py - damage a raw capture in many ways and run `deferbench analyze` on
# each copy: no case may end by a signal, a sanitizer report or a hang.
#
#   mutate-capture.py DEFERBENCH CAPTURE_DIR WORK_DIR [N [SEED]]
#
# Structural damage (a lying commit word, record length, event id, __data_loc string,
# timestamp, a truncated file, a broken capture.json, format file, header page or
# comms file, a FIFO, directory or device where a file belongs) must end with exit
# status 1 and a message naming the damaged file. Random byte flips in the sub-buffers
# may also leave a capture that is still valid (a changed pid or vector): exit 0 or 1.
# Prints one line per failure and a summary; exits 1 if any case failed.
import json
import os
import random
import shutil
import struct
import subprocess
import sys

PAGE_HDR = 16


def records(page, size):
    """(offset in page, type_len, payload offset, payload length) of each record"""
    commit = struct.unpack_from('<Q', page, 8)[0] & ((1 << 27) - 1)
    cap = size - PAGE_HDR
    out, curr = [], 0
    while curr < commit and curr + 4 <= cap:
        tl = struct.unpack_from('<I', page, PAGE_HDR + curr)[0]
        t = tl & 31
        if t == 29:
            ln = struct.unpack_from('<I', page, PAGE_HDR + curr + 4)[0]
            nxt = curr + 4 + ln
        elif t in (30, 31):
            nxt = curr + 8
        elif t == 0:
            ln = struct.unpack_from('<I', page, PAGE_HDR + curr + 4)[0]
            out.append((PAGE_HDR + curr, 0, PAGE_HDR + curr + 8, (ln - 4 + 3) & ~3))
            nxt = curr + 8 + ((ln - 4 + 3) & ~3)
        else:
            out.append((PAGE_HDR + curr, t, PAGE_HDR + curr + 4, t * 4))
            nxt = curr + 4 + t * 4
        curr = nxt
    return out


class Capture:
    def __init__(self, cap):
        self.cap = cap
        self.meta = json.load(open(os.path.join(cap, 'raw', 'capture.json')))
        self.size = self.meta['subbuf_size']
        self.cpus = [c for c in range(self.meta['cpus'])
                     if os.path.exists(self.path('cpu%d.dat' % c))]
        qfmt = open(self.path('formats/workqueue/workqueue_queue_work')).read()
        self.queue_id = int(qfmt.split('ID: ')[1].split('\n')[0])
        self.wq_loc = int(qfmt.split('workqueue;\toffset:')[1].split(';')[0])

    def path(self, rel):
        return os.path.join(self.cap, 'raw', rel)

    def pages(self, cpu):
        data = open(self.path('cpu%d.dat' % cpu), 'rb').read()
        return [data[i:i + self.size] for i in range(0, len(data), self.size)]


def write_pages(raw, cpu, pages):
    with open(os.path.join(raw, 'cpu%d.dat' % cpu), 'wb') as f:
        f.write(b''.join(pages))


def pick_page(c, rnd, need_records=True):
    cpu = rnd.choice(c.cpus)
    pages = [bytearray(p) for p in c.pages(cpu)]
    idx = [i for i, p in enumerate(pages) if not need_records or records(p, c.size)]
    return cpu, pages, rnd.choice(idx)


# ---- structural damage: each returns the damaged file, relative to raw/ ----

def m_commit(c, raw, rnd):
    cpu, pages, i = pick_page(c, rnd, False)
    v = rnd.choice([rnd.randrange(c.size - PAGE_HDR + 1, 1 << 27),
                    0xC7FFFFF0, rnd.randrange(1 << 27, 1 << 30) | 1 << 28,
                    rnd.getrandbits(64) | 1 << 40])
    struct.pack_into('<Q', pages[i], 8, v)
    write_pages(raw, cpu, pages)
    return 'cpu%d.dat' % cpu


def m_reclen(c, raw, rnd):
    cpu, pages, i = pick_page(c, rnd)
    off, t, pay, ln = rnd.choice(records(pages[i], c.size))
    delta = struct.unpack_from('<I', pages[i], off)[0] & ~31
    struct.pack_into('<I', pages[i], off, delta)         # type_len 0: length word follows
    struct.pack_into('<I', pages[i], off + 4, rnd.choice([0, 1, 2, 3, 0xfffffff0,
                                                           rnd.randrange(c.size, 1 << 32)]))
    write_pages(raw, cpu, pages)
    return 'cpu%d.dat' % cpu


def m_event_id(c, raw, rnd):
    cpu, pages, i = pick_page(c, rnd)
    off, t, pay, ln = rnd.choice(records(pages[i], c.size))
    struct.pack_into('<H', pages[i], pay, rnd.choice([0xffff, 0, 1, 0x7fff]))
    write_pages(raw, cpu, pages)
    return 'cpu%d.dat' % cpu


def m_data_loc(c, raw, rnd):
    for _ in range(100):
        cpu, pages, i = pick_page(c, rnd)
        qs = [r for r in records(pages[i], c.size)
              if struct.unpack_from('<H', pages[i], r[2])[0] == c.queue_id]
        if qs:
            break
    else:
        return m_commit(c, raw, rnd)
    off, t, pay, ln = rnd.choice(qs)
    loc = rnd.choice([0xffff0000 | c.wq_loc, (40 << 16) | 0xfff0, 0xffffffff,
                      ((ln + 1) << 16)])
    struct.pack_into('<I', pages[i], pay + c.wq_loc, loc)
    write_pages(raw, cpu, pages)
    return 'cpu%d.dat' % cpu


def m_timestamp(c, raw, rnd):
    cpu, pages, i = pick_page(c, rnd)
    struct.pack_into('<Q', pages[i], 0, rnd.choice([1 << 62, 0xffffffffffffff00, 5]))
    write_pages(raw, cpu, pages)
    return 'cpu%d.dat' % cpu


def m_truncate_dat(c, raw, rnd):
    cpu = rnd.choice(c.cpus)
    p = os.path.join(raw, 'cpu%d.dat' % cpu)
    n = os.path.getsize(p)
    os.truncate(p, n - rnd.randrange(1, c.size))
    return 'cpu%d.dat' % cpu


def m_capture_json(c, raw, rnd):
    p = os.path.join(raw, 'capture.json')
    meta = json.load(open(p))
    kind = rnd.randrange(9)
    if kind == 0:
        del meta[rnd.choice(['schema', 'cpus', 'subbuf_size', 'start_ts', 'end_ts',
                             'interval_ns', 'buffer_kb', 'loss'])]
    elif kind == 1:
        meta['subbuf_size'] = rnd.choice([0, 1, 4097, 6144, 3, 1 << 21, -4096, 'x', 8192])
    elif kind == 2:
        meta['cpus'] = rnd.choice([0, -1, 100000, 'two', 1.5])
    elif kind == 3:
        meta['end_ts'] = meta['start_ts'] - rnd.randrange(1, 1000)
    elif kind == 4:
        meta['interval_ns'] = rnd.choice([1, 999, -5])
    elif kind == 5:
        meta['loss'] = meta['loss'][:-1]
    elif kind == 6:
        meta['schema'] = 'deferbench-raw/2'
    if kind == 7:
        text = json.dumps(meta)
        text = text[:rnd.randrange(len(text))]
    elif kind == 8:
        text = json.dumps(meta) + rnd.choice([' x', '{}', '\0'])
    else:
        text = json.dumps(meta)
    open(p, 'w').write(text)
    return 'capture.json'


FORMATS = ['irq/softirq_raise', 'irq/softirq_entry', 'irq/softirq_exit',
           'workqueue/workqueue_queue_work', 'workqueue/workqueue_execute_start',
           'workqueue/workqueue_execute_end', 'workqueue/workqueue_activate_work',
           'sched/sched_switch', 'sched/sched_wakeup']


def m_format(c, raw, rnd):
    rel = 'formats/' + rnd.choice(FORMATS)
    p = os.path.join(raw, rel)
    text = open(p).read()
    head = text[:text.index('print fmt:')]
    kind = rnd.randrange(6)
    if kind == 0:
        text = head[:rnd.randrange(len(head))]          # cut before the print format
    elif kind == 1:
        lines = [l for l in text.split('\n') if 'field:' in l and 'common_' not in l]
        text = text.replace(lines[0] + '\n', '')        # an expected field gone
        if lines[0].split(';')[0].split()[-1] in ('req_cpu', 'cpu', 'prev_prio',
                                                   'prev_state', 'next_prio', 'prev_comm'):
            text = text.replace('common_pid', 'common_pod')
    elif kind == 2:
        text = text.replace('size:4;', 'size:3;', 1).replace('size:8;', 'size:5;', 1)
    elif kind == 3:
        text = text.replace('ID: ', 'ID: 99999', 1)
    elif kind == 4:
        text = text.replace('name: ', 'name: x', 1)
    else:
        text = text.replace('offset:', 'offset:70000', 1)
    open(p, 'w').write(text)
    return rel


def m_header_page(c, raw, rnd):
    p = os.path.join(raw, 'header_page')
    text = open(p).read()
    kind = rnd.randrange(3)
    if kind == 0:
        text = text[:rnd.randrange(len(text) - 8)]
    elif kind == 1:
        text = text.replace('size:%d' % (c.size - 16), 'size:%d' % (2 * c.size - 16))
    else:
        text = text.replace('offset:16', 'offset:12')
    open(p, 'w').write(text)
    return 'header_page'


def m_comms(c, raw, rnd):
    p = os.path.join(raw, 'comms')
    bad = rnd.choice(['nospace\n', 'x kworker/0:1\n', '12 \x1b]0;title\x07\n',
                      '12 a-comm-of-twenty-chars\n', '-5 kworker/0:1\n', '12 \n'])
    lines = open(p).read().split('\n')
    lines.insert(rnd.randrange(len(lines)), bad.rstrip('\n'))
    open(p, 'w').write('\n'.join(lines))
    return 'comms'


def m_file_kind(c, raw, rnd):
    rel = rnd.choice(['cpu0.dat', 'capture.json', 'header_page', 'comms', 'symbols',
                      'formats/irq/softirq_raise'])
    p = os.path.join(raw, rel)
    os.unlink(p)
    kind = rnd.randrange(3)
    if kind == 0:
        os.mkfifo(p)
    elif kind == 1:
        os.mkdir(p)
    else:
        os.symlink('/dev/zero', p)
    return rel


STRUCTURAL = [m_commit, m_reclen, m_event_id, m_data_loc, m_timestamp, m_truncate_dat,
              m_capture_json, m_format, m_header_page, m_comms, m_file_kind]


def m_flips(c, raw, rnd):
    """random byte flips: the capture may stay valid"""
    cpu = rnd.choice(c.cpus)
    p = os.path.join(raw, 'cpu%d.dat' % cpu)
    data = bytearray(open(p, 'rb').read())
    for _ in range(rnd.randrange(1, 9)):
        data[rnd.randrange(len(data))] = rnd.randrange(256)
    open(p, 'wb').write(data)
    return None


def main():
    db, cap, work = sys.argv[1], sys.argv[2], sys.argv[3]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 300
    rnd = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 10)
    c = Capture(cap)
    counts = {'exit 1 naming the file': 0, 'exit 0 (still a valid capture)': 0}
    failed = 0
    for k in range(n):
        case = os.path.join(work, 'case')
        shutil.rmtree(case, ignore_errors=True)
        os.makedirs(case)
        shutil.copytree(os.path.join(cap, 'raw'), os.path.join(case, 'raw'), symlinks=True)
        m = STRUCTURAL[k % len(STRUCTURAL)] if k % 4 != 3 else m_flips
        bad = m(c, os.path.join(case, 'raw'), rnd)
        what = '%d %s%s' % (k, m.__name__, ' ' + bad if bad else '')
        try:
            r = subprocess.run([db, 'analyze', case, '-o', os.path.join(work, 'out')],
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            print('FAIL %s: hung (more than 30 s)' % what)
            failed += 1
            continue
        err = r.stderr.decode(errors='replace')
        shutil.rmtree(os.path.join(work, 'out'), ignore_errors=True)
        problem = None
        if r.returncode < 0 or r.returncode >= 128:
            problem = 'killed by a signal (status %d)' % r.returncode
        elif 'Sanitizer' in err or 'runtime error' in err:
            problem = 'a sanitizer report'
        elif r.returncode == 1:
            named = os.path.join('raw', bad) if bad else os.path.join(case, 'raw')
            if named not in err:
                problem = 'exit 1 but the message does not name %s' % named
            else:
                counts['exit 1 naming the file'] += 1
        elif r.returncode == 0 and not bad:
            counts['exit 0 (still a valid capture)'] += 1
        else:
            problem = 'exit status %d' % r.returncode
        if problem:
            failed += 1
            print('FAIL %s: %s\n  %s' % (what, problem, err.strip().replace('\n', '\n  ')))
    shutil.rmtree(os.path.join(work, 'case'), ignore_errors=True)
    print('mutate-capture: %d cases: %s; %d failed' % (
        n, ', '.join('%d %s' % (v, k) for k, v in counts.items()), failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
