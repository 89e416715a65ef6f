#!/usr/bin/env python3
"""scripts/perf.py judges what it times: with its timers replaced by scripted readings (the
committed baseline scaled by chosen factors, sweep times chosen per run), a suite at its baseline
passes, a figure slow in all three of its timings fails, a figure slow once or twice (noise)
passes, a claim-level ratio out of bounds fails, and the sweep's check fails a harness that runs
serially while passing one on a machine whose two cores slow each other down (as CI's did)."""
import contextlib
import io
import json
import os
import sys
import unittest
from unittest import mock

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import perf  # noqa: E402

with open(perf.BASELINE) as f:
    BASELINE = json.load(f)
CALIBRATION_S = 7e-4  # this run's calibration: the machine is 3.5x slower than the baseline's


class ScriptedBench:
    """bench_minima's stand-in: every benchmark at its baseline figure times this run's
    calibration, times factors[name][k] on its k-th timing (the last factor repeats)."""

    def __init__(self, factors=None):
        self.factors = factors or {}
        self.timings = {}

    def __call__(self, bench, names):
        best = {}
        for n in names:
            k = self.timings.get(n, 0)
            self.timings[n] = k + 1
            if n == perf.CALIBRATION:
                best[n] = CALIBRATION_S
                continue
            f = self.factors.get(n, [1.0])
            best[n] = BASELINE["benchmarks"][n]["normalised"] * CALIBRATION_S * f[min(k, len(f) - 1)]
        return best, {"num_cpus": 2, "mhz_per_cpu": 2500}


class ScriptedSweep:
    """sweep_seconds' stand-in: t1 for one thread alone, t2 for two threads, tp for each of two
    single-thread processes at once."""

    def __init__(self, t1, t2, tp):
        self.t1, self.t2, self.tp = t1, t2, tp
        self.calls = []

    def __call__(self, arena, threads, copies=1):
        self.calls.append((threads, copies))
        if threads == 2:
            return self.t2
        return self.tp if copies == 2 else self.t1


def run_perf(bench, sweep=None):
    """perf.main()'s exit status and printed table, with the scripted timers."""
    argv = ["perf.py", "--bench", "fake_bench", "--arena", "fake_arena"] + ([] if sweep else ["--no-sweep"])
    out = io.StringIO()
    with mock.patch.object(perf, "bench_minima", bench), \
            mock.patch.object(perf, "sweep_seconds", sweep or ScriptedSweep(1, 1, 1)), \
            mock.patch.object(sys, "argv", argv), mock.patch("os.cpu_count", return_value=2), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = perf.main()
    return status, out.getvalue()


class PerfJudges(unittest.TestCase):
    def test_the_baseline_itself_passes(self):
        status, table = run_perf(ScriptedBench())
        self.assertEqual(status, 0, table)
        self.assertNotIn("SLOWER", table)

    def test_a_figure_slow_every_time_fails(self):
        name = "BM_SdrsModelStep"
        bench = ScriptedBench({name: [2.0]})
        status, table = run_perf(bench)
        self.assertEqual(status, 1)
        row = next(line for line in table.splitlines() if line.startswith(name))
        self.assertIn("SLOWER", row)
        self.assertIn("(timed 3 times)", row)
        self.assertEqual(bench.timings[name], 3)

    def test_a_figure_slow_twice_then_within_is_noise(self):
        bench = ScriptedBench({"BM_SdrsModelStep": [2.0, 1.6, 1.2], "BM_IpcModelStep/box": [1.7, 1.1]})
        status, table = run_perf(bench)
        self.assertEqual(status, 0, table)
        self.assertEqual(bench.timings["BM_SdrsModelStep"], 3)
        self.assertEqual(bench.timings["BM_IpcModelStep/box"], 2)  # not timed again once within

    def test_a_figure_slow_once_is_noise(self):
        bench = ScriptedBench({"BM_SdrsModelStep": [2.0, 1.1]})
        status, table = run_perf(bench)
        self.assertEqual(status, 0, table)

    def test_a_figure_just_under_its_own_limit_passes(self):
        name = "BM_NimbleAtlasJacobians/five"
        limit = BASELINE["benchmarks"][name]["limit"]
        status, table = run_perf(ScriptedBench({name: [limit * 0.99]}))
        self.assertEqual(status, 0, table)
        status, _ = run_perf(ScriptedBench({name: [limit * 1.01]}))
        self.assertEqual(status, 1)

    def test_a_claim_ratio_out_of_bounds_fails(self):
        # bilevel's step ten times faster than its baseline: no figure is slower than its limit,
        # but bilevel / silico falls below its bound of 5 (the claim the ratio stands for).
        num, den, low, _ = perf.RATIOS["bilevel_over_silico"]
        now = BASELINE["benchmarks"][num]["normalised"] / BASELINE["benchmarks"][den]["normalised"]
        self.assertLess(now * 0.1, low)
        status, table = run_perf(ScriptedBench({num: [0.1]}))
        self.assertEqual(status, 1)
        self.assertIn("OUT OF BOUNDS", table)
        self.assertNotIn("SLOWER", table)

    def test_the_sweep_judges_the_harness_not_the_machine(self):
        # CI's machine: two cores that slow each other down (t1 / (2 t2) = 0.78), a harness that
        # keeps both busy (two separate processes take as long as its two threads).
        contended = ScriptedSweep(t1=28.2, t2=18.1, tp=34.0)
        status, table = run_perf(ScriptedBench(), contended)
        self.assertEqual(status, 0, table)
        self.assertIn("0.939", table)  # tp / (2 t2)
        self.assertIn("0.779", table)  # the raw t1 / (2 t2), printed, not judged
        self.assertEqual(contended.calls, [(1, 1), (2, 1), (1, 2)])  # judged at the first reading

    def test_a_serial_sweep_fails_after_three_readings(self):
        serial = ScriptedSweep(t1=30.0, t2=30.0, tp=36.0)
        status, table = run_perf(ScriptedBench(), serial)
        self.assertEqual(status, 1)
        self.assertIn("BELOW", table)
        self.assertEqual(serial.calls.count((2, 1)), 3)


if __name__ == "__main__":
    unittest.main()
