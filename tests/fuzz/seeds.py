#!/usr/bin/env python3
# seeds.py CAPTURE_DIR OUT_DIR - the seed corpus of fuzz_capture from a raw capture
# (how tests/fuzz/corpus/capture/ was made from tests/fixtures/capture-tty.tar.gz), and
# a sub-buffer of kernel_stack records built here (the fixture has none).
import os
import struct
import sys

cap, out = sys.argv[1], sys.argv[2]
raw = os.path.join(cap, 'raw')
os.makedirs(out, exist_ok=True)


def seed(name, data):
    open(os.path.join(out, name), 'wb').write(data)


cpu0 = open(os.path.join(raw, 'cpu0.dat'), 'rb').read()
cpu1 = open(os.path.join(raw, 'cpu1.dat'), 'rb').read()
for i in range(0, 4):
    seed('subbuf-%d' % i, b'\0' + bytes([1]) + cpu0[i * 4096:(i + 1) * 4096])
seed('subbuf-2cpus', b'\0' + bytes([2]) + cpu0[:8192] + cpu1[:8192])
seed('subbuf-last', b'\0' + bytes([1]) + cpu0[-4096:])
seed('capture-json', b'\1' + open(os.path.join(raw, 'capture.json'), 'rb').read())
names = ['irq/softirq_raise', 'irq/softirq_entry', 'irq/softirq_exit',
         'workqueue/workqueue_queue_work', 'workqueue/workqueue_activate_work',
         'workqueue/workqueue_execute_start', 'workqueue/workqueue_execute_end',
         'sched/sched_switch', 'sched/sched_wakeup']
for k, n in enumerate(names):
    seed('format-' + n.split('/')[1], b'\2' + bytes([k]) +
         open(os.path.join(raw, 'formats', n), 'rb').read())
seed('header-page', b'\3\0' + open(os.path.join(raw, 'header_page'), 'rb').read())
seed('symbols', b'\4' + open(os.path.join(raw, 'symbols'), 'rb').read())
seed('comms', b'\5' + open(os.path.join(raw, 'comms'), 'rb').read())


# subbuf-stack: NET_RX raised, entered with its stack (the stacktrace trigger's record,
# ID 4 in fixture_formats.h), exited; then a stack with no entry and a damaged one
def subbuf_stack():
    ts0 = 346293841983 + 1000000
    recs = []
    last = [ts0]

    def rec(ts, body):
        delta = ts - last[0]
        last[0] = ts
        body += b'\0' * (-len(body) % 4)
        recs.append(struct.pack('<I', (delta << 5) | (len(body) // 4)) + body)

    def sirq(ts, ev_id, vec, flags):
        rec(ts, struct.pack('<HBBiI', ev_id, flags, 0, 42, vec))

    def stack(ts, frames, size):
        rec(ts, struct.pack('<HBBiiI', 4, 0x10, 0, 42, size, 0) +
            b''.join(struct.pack('<Q', f) for f in frames))
    frames = [0xffffffff81369120 + 0x40, 0xffffffff81369b40 + 0x80,
              0xffffffff81369ea0 + 0x20, 0xffffffff81aa0000, 0xffffffff81bb0000]
    sirq(ts0, 221, 3, 0x80)
    sirq(ts0 + 4000, 223, 3, 0x10)
    stack(ts0 + 4100, frames, len(frames))
    sirq(ts0 + 9000, 222, 3, 0x10)
    stack(ts0 + 9500, frames[:3], 3)
    stack(ts0 + 9900, frames[:3], 200)
    data = b''.join(recs)
    page = struct.pack('<QQ', ts0, len(data)) + data
    return page + b'\0' * (4096 - len(page))


seed('subbuf-stack', b'\0' + bytes([1]) + subbuf_stack())
