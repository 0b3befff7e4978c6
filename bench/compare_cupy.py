#!/usr/bin/env python3
"""Run cusci-bench and the same cases in CuPy on the same GPU, in one run,
and print a table: case, cusci, CuPy, ratio (CuPy time / cusci time: above
1 means cusci is faster).

    python3 bench/compare_cupy.py [--bench PATH] [--case NAME]... [--markdown]

CuPy timing follows cusci-bench: warm-up, then loops of K calls each ended
by one synchronisation and timed with CUDA events (host clock for the cases
in HOST_TIME, in runs of 128 calls each followed by a synchronisation that
is not timed), the median over loops.
"""
import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load_cases():
    sys.path.insert(0, HERE)
    cases, host_time = {}, set()
    for mod in ("cupy_core", "cupy_compute", "cupy_random", "cupy_linalg", "cupy_signal"):
        try:
            m = importlib.import_module(mod)
        except ModuleNotFoundError:
            continue
        cases.update(m.CASES)
        host_time |= set(getattr(m, "HOST_TIME", ()))
    return cases, host_time


HOST_RUN = 128


def time_cupy(cp, make, host, loops=21):
    fn = make(cp)
    for _ in range(3):
        fn()
    cp.cuda.Device().synchronize()
    start, end = cp.cuda.Event(), cp.cuda.Event()

    def loop(k):
        if host:
            # runs of HOST_RUN calls, as bench/main.c: a full launch queue
            # would count the GPU's time as the host's
            total, done = 0.0, 0
            while done < k:
                run = min(HOST_RUN, k - done)
                t0 = time.perf_counter()
                for _ in range(run):
                    fn()
                total += time.perf_counter() - t0
                cp.cuda.Device().synchronize()
                done += run
            return total * 1e6 / k
        start.record()
        for _ in range(k):
            fn()
        end.record()
        end.synchronize()
        return cp.cuda.get_elapsed_time(start, end) * 1e3 / k

    one = loop(1)
    k = max(1, min(100000, int(20000 / one) if one > 0 else 1000))
    times = sorted(loop(k) for _ in range(loops))
    extra = fn.report() if hasattr(fn, "report") else {}
    return statistics.median(times), extra


def main():
    # Every case gets a row: a case that failed or was skipped says why,
    # and a failed or unparsable line of cusci-bench does not stop the run.
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default=os.path.join(os.getcwd(), "bench", "cusci-bench"))
    ap.add_argument("--case", action="append", default=[])
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    cmd = [args.bench, "--device", "cuda:0"]
    for c in args.case:
        cmd += ["--case", c]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        print("cusci-bench exited with status %d: %s" % (proc.returncode, proc.stderr.strip()[-300:]), file=sys.stderr)
    else:
        # its notes (a case that left pool memory in use, say)
        for note in proc.stderr.splitlines():
            if note.startswith("cusci-bench:"):
                print(note, file=sys.stderr)
    ours = []
    for line in proc.stdout.splitlines():
        if not line.startswith("{"):
            continue
        try:
            ours.append(json.loads(line))
        except ValueError as e:  # reported in the table, not fatal
            ours.append({"case": line[:60], "error": "a line that is not JSON (%s)" % e})
    import cupy as cp
    cases, host_time = load_cases()
    rows = []
    for r in ours:
        name = r["case"]
        if "median_us" not in r:
            why = ("error: " + r["error"]) if "error" in r else r.get("skipped", "")
            rows.append((name, None, None, why, {}))
            continue
        theirs, extra = (None, {})
        if name in cases:
            try:
                theirs, extra = time_cupy(cp, cases[name], name in host_time)
            except Exception as e:  # a case CuPy cannot run is reported, not fatal
                extra = {"cupy_error": str(e)[:80]}
            cp.get_default_memory_pool().free_all_blocks()
        rows.append((name, r, theirs, "", extra))
        print(json.dumps({"case": name, "cusci": r, "cupy_us": theirs, "cupy_extra": extra}), file=sys.stderr)
    sep = " | " if args.markdown else "  "
    head = ["case", "cusci", "CuPy", "CuPy/cusci", "notes"]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print(sep.join(head))
    for name, r, theirs, skipped, extra in rows:
        if r is None:
            cells = [name, "failed" if skipped.startswith("error") else "skipped", "", "", skipped]
        else:
            rate = ""
            if "GBps" in r:
                rate = " (%.0f GB/s)" % r["GBps"]
            elif "GFLOPs" in r:
                rate = " (%.0f GFLOP/s)" % r["GFLOPs"]
            notes = []
            if "total_over_used" in r:
                notes.append("cusci held/used %.2f" % r["total_over_used"])
            if "total_over_used" in extra:
                notes.append("CuPy held/used %.2f" % extra["total_over_used"])
            if "cupy_error" in extra:
                notes.append("CuPy: " + extra["cupy_error"])
            cells = [name, "%.2f us%s" % (r["median_us"], rate),
                     "%.2f us" % theirs if theirs else "n/a",
                     "%.2fx" % (theirs / r["median_us"]) if theirs else "", "; ".join(notes)]
        print(("| " if args.markdown else "") + sep.join(cells) + (" |" if args.markdown else ""))


if __name__ == "__main__":
    main()
