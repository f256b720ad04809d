#!/usr/bin/env python3
"""measured_check.py - the farm with measured computation (farm -m): did the
master take every result in virtual order?  Checked to the ns, whatever CPU
time the jobs took in this run.

  measured_check.py VLPOST TRACEDIR FARM_OUTPUT

VLPOST: the vlpost binary (its `dump` command reads the traces: the one
trace reader, postproc/tracereader.c).

The CPU time of a job varies from job to job and from process to process
(up to 10 % on this 2-CPU VM beside a CPU hog), so no simulation from one CPU
time per job can say exactly how many jobs each worker gets.  Instead this
re-runs the farm as an event simulation (farm_sim.py's rules, written from the
model, not from vlayer's code) in which everything a task did between two of
its messages takes the virtual time it took in this run's traces (the job's
measured computation, the few us of user code around the calls), and the
master takes results in virtual-arrival order (ties: the lower worker index).
Which worker gets which job, the order the results come in and the master's
time after the last one are the simulation's own: they must equal what the
farm printed and what its trace says, exactly.  A layer that matched results
in real order would differ (the workers' host factors are 1 .. 1/8).

The model is farm_measured.ini's: send 5 us, receive 5 us, transmission
50 us + 8 us/KiB.  Prints the simulation and exits 1 on a difference.
"""
import heapq
import subprocess
import sys

SEND, RECV = 5000, 5000
TRANS, PS_PER_KIB = 50000, 8000000
TAG_JOB, TAG_RESULT = 21, 22


def read_traces(vlpost, tdir):
    """{tid: [(type, peer, tag, bytes, t0, t1)]} of the SEND and RECV records,
    from `vlpost dump` (type 'send' or 'recv')."""
    out = subprocess.run([vlpost, "dump", tdir], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("measured_check: vlpost dump %s: %s" % (tdir, out.stderr.strip()))
    tasks = {}
    for line in out.stdout.splitlines():
        w = line.split()
        if w[0] == "task":
            tasks[int(w[1])] = []
        elif w[1] in ("send", "recv"):
            tasks[int(w[0])].append((w[1], int(w[3]), int(w[4]), int(w[6]), int(w[7]), int(w[8])))
    return tasks


def gaps(ops):
    """The virtual time before each op since the end of the one before (the
    first op: its own start)."""
    return [ops[0][4]] + [ops[i][4] - ops[i - 1][5] for i in range(1, len(ops))]


def trans(nbytes):
    return TRANS + nbytes * PS_PER_KIB // (1024 * 1000)


def main():
    tasks = read_traces(sys.argv[1], sys.argv[2])
    farm = sys.argv[3]
    master = max(tasks, key=lambda t: sum(1 for o in tasks[t] if o[0] == "recv" and o[2] == TAG_RESULT))
    mops = tasks[master]
    wids = []
    for o in mops:
        if o[0] == "send" and o[2] == TAG_JOB and o[1] not in wids:
            wids.append(o[1])
    got = {"count": {}, "order": None, "end": None}
    with open(farm) as fh:
        for line in fh:
            w = line.split()
            if len(w) == 3 and w[0] == "count":
                got["count"][int(w[1])] = int(w[2])
            elif w and w[0] == "order":
                got["order"] = [int(x) for x in w[1:]]
            elif len(w) == 2 and w[0] == "end":
                got["end"] = int(w[1])
    nw = len(wids)
    jobs = sum(1 for o in mops if o[0] == "recv" and o[2] == TAG_RESULT)
    if nw < 1 or len(got["count"]) != nw or got["order"] is None:
        print("measured_check: %d workers in the traces, the farm printed %d counts"
              % (nw, len(got["count"])))
        return 1
    wops = [[o for o in tasks[w] if o[2] in (TAG_JOB, TAG_RESULT)] for w in wids]
    mops = [o for o in mops if o[2] in (TAG_JOB, TAG_RESULT)]
    mgap, wgap = gaps(mops), [gaps(o) for o in wops]

    # the simulation: the master's k-th message call and worker w's k-th
    # start after the time the traces give before them
    state = {"m": 0, "mi": 0, "wi": [0] * nw, "wclock": [0] * nw}
    pending, count, order, bad = [], [0] * nw, [], []

    def gap(g, i):
        return g[i] if i < len(g) else 0  # a diverged simulation: the counts differ anyway

    def give(w):
        t0 = state["m"] + gap(mgap, state["mi"]) if state["mi"] else gap(mgap, 0)
        state["mi"] += 1
        state["m"] = t0 + SEND
        arrival = state["m"] + trans(4)
        i = state["wi"][w]
        r0 = state["wclock"][w] + gap(wgap[w], i) if i else gap(wgap[w], 0)
        r1 = max(r0, arrival) + RECV
        s0 = r1 + gap(wgap[w], i + 1)
        state["wclock"][w] = s0 + SEND
        state["wi"][w] = i + 2
        nbytes = wops[w][i + 1][3] if i + 1 < len(wops[w]) else 4
        heapq.heappush(pending, (state["wclock"][w] + trans(nbytes), w))

    nxt = 0
    for w in range(nw):
        if nxt < jobs:
            give(w)
            nxt += 1
    for k in range(jobs):
        arrival, w = heapq.heappop(pending)
        t0 = state["m"] + gap(mgap, state["mi"])
        state["mi"] += 1
        state["m"] = max(t0, arrival) + RECV
        count[w] += 1
        order.append(w)
        if state["mi"] <= len(mops) and mops[state["mi"] - 1][5] != state["m"] and not bad:
            bad.append("the master's receive %d ends at %d in the simulation, %d in the trace"
                       % (k + 1, state["m"], mops[state["mi"] - 1][5]))
        if nxt < jobs:
            give(w)
            nxt += 1
    for w in range(nw):
        print("worker %d (tid %#x): %d jobs, simulation %d" % (w, wids[w], got["count"][w], count[w]))
        if got["count"][w] != count[w]:
            bad.append("worker %d: %d jobs, the simulation gives %d" % (w, got["count"][w], count[w]))
    print("order %s" % " ".join(map(str, got["order"])))
    print("simulation %s" % " ".join(map(str, order)))
    if got["order"] != order:
        bad.append("the results came in another order than in the simulation")
    last = [o for o in mops if o[0] == "recv"][-1][5]
    print("the master's last receive ends at %d ns (simulation %d); the farm printed end %s"
          % (last, state["m"], got["end"]))
    if got["end"] is None or not state["m"] <= got["end"] < state["m"] + 10**6:
        bad.append("end %s is not within 1 ms after the simulation's %d" % (got["end"], state["m"]))
    for b in bad:
        print("measured_check: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
