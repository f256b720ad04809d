#!/usr/bin/env python3
"""measured_check.py - the farm with measured computation (farm -m): are the
jobs per worker within +-1 of what the exact event simulation gives for the
CPU time a job really took?

  measured_check.py STATS FARM_OUTPUT FACTORS JOBS

STATS: `vlpost stats` of the run; FARM_OUTPUT: what the farm printed;
FACTORS: the workers' host factors, in worker order (e.g. 1,0.5,0.25,0.125).
The real CPU time of one job is taken from the run itself: the workers'
computation divided by their factors, over the jobs done (the CPU time before
the first job is a few ms and counts in; that is within the +-1).  Prints one
line per worker and exits 1 if a count is off by more than one.
"""
import os
import subprocess
import sys


def main():
    stats, farm, factors, jobs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    f = [float(x) for x in factors.split(",")]
    rows = []
    with open(stats) as fh:
        for line in fh:
            w = line.split()
            if w and w[0] == "all":
                break  # the end of the first table (per task)
            if len(w) > 4 and w[0].isdigit() and w[2] != "master":
                rows.append(float(w[4]) * 1e-6)  # comp_us -> s
    got = {}
    with open(farm) as fh:
        for line in fh:
            w = line.split()
            if len(w) == 3 and w[0] == "count":
                got[int(w[1])] = int(w[2])
    if len(rows) != len(f) or len(got) != len(f):
        print("measured_check: expected %d workers, stats has %d, farm printed %d"
              % (len(f), len(rows), len(got)))
        return 1
    cpu = sum(r / x for r, x in zip(rows, f)) / jobs
    sim = subprocess.run(
        [sys.executable, os.path.join(os.path.dirname(__file__), "farm_sim.py"),
         "--jobs", str(jobs), "--flops", repr(cpu),
         "--rates", ",".join(repr(1.0 / x) for x in f), "--send", "5000", "--recv", "5000",
         "--trans", "50000", "--ps-per-kib", "8000000", "--bytes", "4"],
        capture_output=True, text=True, check=True).stdout
    exp = {int(w[1]): int(w[2]) for w in (l.split() for l in sim.splitlines())
           if len(w) == 3 and w[0] == "count"}
    bad = 0
    print("cpu per job %.3f ms" % (cpu * 1e3))
    for i in range(len(f)):
        ok = abs(got[i] - exp[i]) <= 1
        bad |= not ok
        print("worker %d (factor %g): %d jobs, simulation %d%s"
              % (i, f[i], got[i], exp[i], "" if ok else "  <- off by more than 1"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
