#!/usr/bin/env python3
"""measured_check.py - the farm with measured computation (farm -m): are the
jobs per worker within +-1 of what the exact event simulation gives for the
CPU time a job really took on each worker?

  measured_check.py STATS FARM_OUTPUT FACTORS JOBS

STATS: `vlpost stats` of the run; FARM_OUTPUT: what the farm printed;
FACTORS: the workers' host factors, in worker order (e.g. 1,0.5,0.25,0.125).
The CPU time of a job is taken from the run itself, per worker: its
computation over the jobs it did (the CPU time before the first job is a few
ms and counts in; that is within the +-1).  Identical real work takes up to
10 % more or less CPU time in one process than in another on this 2-CPU VM
beside a CPU hog (README, Benchmarks: the machine's own floor), which moves
the fastest worker's count by 2 or more: the simulation with one CPU time
for all the workers (their total over all jobs) is printed too, for
information.  Prints one line per worker and exits 1 if a count is off by
more than one.
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
    # per worker: the virtual time one of its jobs took (its rate: jobs per s)
    per = [rows[i] / got[i] if got[i] else cpu * f[i] for i in range(len(f))]
    exp = simulate(jobs, 1.0, [1.0 / p for p in per])
    one = simulate(jobs, cpu, [1.0 / x for x in f])
    bad = 0
    print("cpu per job %.3f ms (all workers)" % (cpu * 1e3))
    for i in range(len(f)):
        ok = abs(got[i] - exp[i]) <= 1
        bad |= not ok
        print("worker %d (factor %g, %.3f ms of cpu a job): %d jobs, simulation %d "
              "(one cpu time for all: %d)%s"
              % (i, f[i], per[i] / f[i] * 1e3, got[i], exp[i], one[i],
                 "" if ok else "  <- off by more than 1"))
    return 1 if bad else 0


def simulate(jobs, flops, rates):
    """Jobs per worker of the exact event simulation (farm_sim.py)."""
    sim = subprocess.run(
        [sys.executable, os.path.join(os.path.dirname(__file__), "farm_sim.py"),
         "--jobs", str(jobs), "--flops", repr(flops),
         "--rates", ",".join(repr(r) for r in rates), "--send", "5000", "--recv", "5000",
         "--trans", "50000", "--ps-per-kib", "8000000", "--bytes", "4"],
        capture_output=True, text=True, check=True).stdout
    return {int(w[1]): int(w[2]) for w in (l.split() for l in sim.splitlines())
            if len(w) == 3 and w[0] == "count"}


if __name__ == "__main__":
    sys.exit(main())
