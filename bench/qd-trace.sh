#!/bin/sh
# bench/qd-trace.sh [-d DEV] COMMAND...: run COMMAND with the block layer's
# trace events of DEV (default vda) on, in a tracing instance of its own
# (/sys/kernel/tracing/instances/bench-qd-trace.PID, removed on every way
# out), and print per process and direction what reached the device: the
# bios submitted and their size, the requests the device was given
# (block_rq_issue) and their size, the time a bio waited before its
# request was issued (a plug or the scheduler: Q->D), the device's time
# (D->C), the mean and the most requests at the device, and how many
# requests each unplug let go.  Figures that do not depend on the load:
# the sizes, the merges and the requests per unplug.  As root.
#
#   sh bench/qd-trace.sh ./bonnie-ng -d /var/tmp -s 1g -c 16k --direct \
#       --iodepth 32 -p write,read,seeks -S 1 -n 16000
#   sh bench/qd-trace.sh fio --name=r --filename=/var/tmp/f --size=1g \
#       --bs=16k --ioengine=io_uring --iodepth=32 --direct=1 --rw=read
DEV=vda
[ "${1-}" = -d ] && { DEV=$2; shift 2; }
[ $# -gt 0 ] || { echo "usage: bench/qd-trace.sh [-d DEV] COMMAND..." >&2; exit 2; }
TR=/sys/kernel/tracing
[ -d $TR/instances ] || { echo "bench: no tracefs at $TR" >&2; exit 1; }
[ -r /sys/block/$DEV/dev ] || { echo "bench: no block device $DEV" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench: python3 is needed" >&2; exit 1; }
IFS=: read -r MAJ MIN </sys/block/$DEV/dev
DEVT=$(( (MAJ << 20) | MIN ))
I=$TR/instances/bench-qd-trace.$$
OUT=$(mktemp "${TMPDIR:-/tmp}/qd-trace.XXXXXX") || exit 1
cleanup() {
	[ -d "$I" ] && { echo 0 >"$I/tracing_on"; rmdir "$I"; }
	rm -f "$OUT"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
mkdir "$I" || exit 1
echo 131072 >"$I/buffer_size_kb"
for e in block_bio_queue block_rq_issue block_rq_complete; do
	echo "dev == $DEVT" >"$I/events/block/$e/filter"
	echo 1 >"$I/events/block/$e/enable"
done
echo 1 >"$I/events/block/block_unplug/enable"
echo 1 >"$I/tracing_on"
"$@"
st=$?
echo 0 >"$I/tracing_on"
cat "$I/trace" >"$OUT"
python3 - "$OUT" <<'PY'
import collections, re, sys
line_re = re.compile(r'^\s*(.+?)-(\d+)\s+\[\d+\].*?\s([\d.]+): (\w+): (.*)$')
io_re = re.compile(r'\S+ (\S+) (?:\d+ )?(?:\(.*?\) )?(\d+) \+ (\d+)')
bio, req = {}, {}
st = collections.defaultdict(lambda: collections.defaultdict(float))
depth, last, area, first, end, most = ({} for _ in range(6))
unplug = collections.defaultdict(collections.Counter)
def advance(k, t):
    area[k] = area.get(k, 0) + depth.get(k, 0) * (t - last.get(k, t))
    last[k] = t
for line in open(sys.argv[1]):
    m = line_re.match(line)
    if not m:
        continue
    comm, pid, t, ev, rest = m.group(1).strip(), m.group(2), float(m.group(3)), m.group(4), m.group(5)
    if ev == 'block_unplug':
        u = re.search(r'\[(.*?)\] (\d+)', rest)
        if u:
            unplug[u.group(1)][int(u.group(2))] += 1
        continue
    m = io_re.match(rest)
    if not m:
        continue
    rw, s, n = m.group(1), int(m.group(2)), int(m.group(3))
    op = 'write' if 'W' in rw else 'read' if 'R' in rw else None
    if op is None or n == 0:
        continue
    if ev == 'block_bio_queue':
        k = (comm + '-' + pid, op)
        bio[(s, op)] = (t, k)
        st[k]['bios'] += 1; st[k]['bsect'] += n
        first.setdefault(k, t)
    elif ev == 'block_rq_issue':
        # A merged request starts at its first bio; the others are inside.
        q = [v for v in (bio.pop((x, op), None) for x in range(s, s + n)) if v]
        if not q:
            continue
        k = q[0][1]
        req[(s, op)] = (t, k)
        advance(k, t); depth[k] = depth.get(k, 0) + 1
        most[k] = max(most.get(k, 0), depth[k])
        st[k]['reqs'] += 1; st[k]['rsect'] += n
        st[k]['qd'] += sum(t - b[0] for b in q); st[k]['qdn'] += len(q)
    elif ev == 'block_rq_complete':
        r = req.pop((s, op), None)
        if not r:
            continue
        k = r[1]
        advance(k, t); depth[k] -= 1
        st[k]['done'] += 1; st[k]['dc'] += t - r[0]
        end[k] = t
print("process-pid direction: bios (KiB each), requests at the device (KiB each), "
      "Q->D us, D->C us, mean (most) requests at the device, span s")
for k, v in sorted(st.items()):
    if v['bios'] < 100 or v['reqs'] == 0 or k not in end:
        continue
    span = end[k] - first[k]
    print("%s %s: %d (%.1f), %d (%.1f), %.1f, %.1f, %.1f (%d), %.3f" % (
        k[0], k[1], v['bios'], v['bsect'] / 2 / v['bios'], v['reqs'],
        v['rsect'] / 2 / v['reqs'], 1e6 * v['qd'] / max(v['qdn'], 1),
        1e6 * v['dc'] / max(v['done'], 1), area[k] / span if span > 0 else 0,
        most[k], span))
for c, h in sorted(unplug.items()):
    if sum(h.values()) >= 100:
        print("%s: %d unplugs; requests each: %s" % (c, sum(h.values()),
              ", ".join("%d x%d" % (n, x) for n, x in h.most_common(4))))
PY
exit $st
