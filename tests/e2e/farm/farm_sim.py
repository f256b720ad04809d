#!/usr/bin/env python3
"""farm_sim.py - an exact event simulation of the task farm of farm_pvm.c /
farm_mpi.c on the contention-free model, written from the model's rules (not
from vlayer's code), for the virtual-order tests to compare with.

  farm_sim.py --jobs N --flops F --rates R1,R2,... --send NS --recv NS
              --trans NS --ps-per-kib PS --bytes B [--start NS]

All times are integer ns.  The master (its own host) hands out jobs in worker
order, then takes results in virtual-arrival order (ties: lower worker index,
which is the lower tid / rank) and gives the worker that returned one the
next job.  Prints what the farm prints: end, count per worker, order.
"""
import argparse
import heapq


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, required=True)
    ap.add_argument("--flops", type=float, required=True)
    ap.add_argument("--rates", required=True)
    ap.add_argument("--send", type=int, required=True)
    ap.add_argument("--recv", type=int, required=True)
    ap.add_argument("--trans", type=int, required=True)
    ap.add_argument("--ps-per-kib", type=int, required=True)
    ap.add_argument("--bytes", type=int, required=True)
    ap.add_argument("--start", type=int, default=0)
    a = ap.parse_args()
    rates = [float(x) for x in a.rates.split(",")]
    nw = len(rates)
    trans = a.trans + (a.bytes * a.ps_per_kib) // (1024 * 1000)
    comp = [int(a.flops / r * 1e9 + 0.5) for r in rates]
    wclock = [a.start] * nw          # each worker's clock
    t = a.start                      # the master's clock
    pending = []                     # (arrival at master, worker)
    count = [0] * nw
    order = []
    nxt = 0

    def give(w):
        nonlocal t
        t += a.send
        arrival = t + trans
        # the worker: receive, compute, send the result back
        wt = max(wclock[w], arrival) + a.recv
        wt += comp[w]
        wt += a.send
        wclock[w] = wt
        heapq.heappush(pending, (wt + trans, w))

    for w in range(nw):
        if nxt < a.jobs:
            give(w)
            nxt += 1
    done = 0
    while done < a.jobs:
        arrival, w = heapq.heappop(pending)
        t = max(t, arrival) + a.recv
        done += 1
        count[w] += 1
        order.append(w)
        if nxt < a.jobs:
            give(w)
            nxt += 1
    print("end %d" % t)
    for w in range(nw):
        print("count %d %d" % (w, count[w]))
    print("order " + " ".join(str(w) for w in order))


main()
