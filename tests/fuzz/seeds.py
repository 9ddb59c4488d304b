#!/usr/bin/env python3
# seeds.py CAPTURE_DIR OUT_DIR - the seed corpus of fuzz_capture from a raw capture
# (how tests/fuzz/corpus/capture/ was made from tests/fixtures/capture-tty.tar.gz).
import os
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
