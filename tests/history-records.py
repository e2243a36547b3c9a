#!/usr/bin/env python3
"""Records for a history, derived from one real run record.

history-records.py BASE.json OUTDIR N [--seed S] [--noise SD] [--night SD]
    [--step COLUMN:AT:FACTOR[:END]] [--kscale PHASE:AT:KEY=FACTOR,...]
    [--kernel AT:RELEASE ...] [--shuffle]

Writes OUTDIR/rNNNNN.json, N records.  The noise model: record i's value
of each phase's rate, %CPU and worst latency is the base's times
exp(N(0, SD)) (default 0.05, a 5% spread), times a factor its phases
share, exp(N(0, night)) (default 0.02: a slow night slows every phase).
A step multiplies COLUMN (a phase's rate, "write") by FACTOR from record
AT on (to record END, not included), and its %CPU with it, so that its
CPU cost (CPU seconds per GiB) stays: an I/O-bound slowdown.  --kscale multiplies the named iostat
figures of PHASE's target disk (kernel.disk[0]: "wareq-sz=0.25,w/s=4")
from record AT on, each by its factor times exp(N(0, SD)).
--kernel AT:RELEASE sets
system.kernel_release from record AT on.  Record i starts i days after
the base.  --shuffle writes them under names in a shuffled order, so
that only their start tells the order.  Every draw comes from one
generator seeded with S, so the same arguments write the same records.
--seeds S:K writes K histories, OUTDIR/S/ to OUTDIR/(S+K-1)/, each what
--seed of its number writes into OUTDIR (one start of python, not K).
"""
import argparse
import datetime
import json
import math
import os
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("outdir")
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds")
    ap.add_argument("--noise", type=float, default=0.05)
    ap.add_argument("--night", type=float, default=0.02)
    ap.add_argument("--step", action="append", default=[])
    ap.add_argument("--kernel", action="append", default=[])
    ap.add_argument("--kscale", action="append", default=[])
    ap.add_argument("--shuffle", action="store_true")
    a = ap.parse_args()
    with open(a.base) as f:
        text = f.read()
    if a.seeds is None:
        write(a, json.loads(text), a.seed, a.outdir)
        return
    first, count = (int(x) for x in a.seeds.split(":"))
    for seed in range(first, first + count):
        write(a, json.loads(text), seed, os.path.join(a.outdir, str(seed)))


def write(a, rec, seed, outdir):
    rnd = random.Random(seed)
    steps = []
    for s in a.step:
        f = s.split(":")
        steps.append((f[0], int(f[1]), float(f[2]),
                      int(f[3]) if len(f) > 3 else a.n))
    kscales = []
    for k in a.kscale:
        phase, at, figs = k.split(":", 2)
        kscales.append((phase, int(at), [(f.split("=")[0],
                        float(f.split("=")[1])) for f in figs.split(",")]))
    kernels = sorted((int(k.split(":", 1)[0]), k.split(":", 1)[1])
                     for k in a.kernel)
    start = datetime.datetime.strptime(rec["start"], "%Y-%m-%dT%H:%M:%SZ")
    kernel0 = rec["system"]["kernel_release"]
    # The base's values, to scale from each time.
    base = []
    for run in rec["runs"]:
        for name, ph in run["phases"].items():
            if not isinstance(ph, dict):
                continue
            lat = ph.get("latency")
            disk = None
            k = ph.get("kernel")
            if isinstance(k, dict) and k.get("disk"):
                disk = dict(k["disk"][0])
            base.append((ph, name, ph.get("rate"), ph.get("kps"),
                         ph.get("cpu_pct"),
                         lat.get("max_s") if isinstance(lat, dict) else None,
                         disk))
    names = list(range(a.n))
    if a.shuffle:
        rnd.shuffle(names)
    os.makedirs(outdir, exist_ok=True)
    for i in range(a.n):
        night = math.exp(rnd.gauss(0, a.night))
        for ph, name, rate, kps, cpu, lat, disk in base:
            f = {k: night * math.exp(rnd.gauss(0, a.noise))
                 for k in ("rate", "cpu", "lat")}
            for col, at, factor, end in steps:
                if col == name and at <= i < end:
                    f["rate"] *= factor
                    f["cpu"] *= factor
            if rate is not None:
                ph["rate"] = rate * f["rate"]
                if kps is not None:
                    ph["kps"] = int(ph["rate"])
            if cpu is not None:
                ph["cpu_pct"] = cpu * f["cpu"]
            if lat is not None:
                ph["latency"]["max_s"] = lat * f["lat"]
            for phase, at, figs in kscales:
                if phase != name or disk is None:
                    continue
                for key, factor in figs:
                    if key in disk and isinstance(disk[key], (int, float)):
                        ph["kernel"]["disk"][0][key] = disk[key] * (
                            factor if i >= at else 1) * \
                            math.exp(rnd.gauss(0, a.noise))
        rec["start"] = (start + datetime.timedelta(days=i)).strftime(
            "%Y-%m-%dT%H:%M:%SZ")
        rel = kernel0
        for at, r in kernels:
            if i >= at:
                rel = r
        rec["system"]["kernel_release"] = rel
        with open(os.path.join(outdir, "r%05d.json" % names[i]), "w") as f:
            json.dump(rec, f, indent=2)


if __name__ == "__main__":
    main()
