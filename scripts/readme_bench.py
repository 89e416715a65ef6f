#!/usr/bin/env python3
"""docs/timings.md, the project's one page of timings, generated from committed records so that
no page quotes a speed figure or a duration that no record holds, nor mixes figures of different
runs. Its two blocks:

    <!-- timings-snapshot -->  ...  <!-- end timings-snapshot -->
        how long make test, make soak, make reproduce and make perf took, from bench/timings.json
        (one record per command: commit, seconds, what ran, a note); a command with no record
        reads "not timed yet";
    <!-- bench-snapshot -->  ...  <!-- end bench-snapshot -->
        the table below (ROWS) with the figures of one run of the benchmark suite, kept in
        bench/readme_snapshot.json.

  scripts/readme_bench.py --snapshot results/bench/bench.json   # keep a run as the snapshot
  scripts/readme_bench.py --check | --write [--doc docs/timings.md]

--snapshot trims a Google Benchmark JSON (`make bench`, best with
BENCH_FLAGS=--benchmark_repetitions=3: the medians are kept) to the figures and counters, with
the run's commit, date and machine. --write regenerates the page's blocks; --check (a ctest)
exits 1 when a block differs from what the records give. A new duration is a record in
bench/timings.json (replace the command's record), then --write.
"""
import argparse
import json
import os
import re
import sys

from readme_blocks import sync_blocks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SNAPSHOT = os.path.join(ROOT, "bench", "readme_snapshot.json")
TIMINGS = os.path.join(ROOT, "bench", "timings.json")
DOC = os.path.join(ROOT, "docs", "timings.md")
BLOCK = re.compile(r"(?P<open><!-- bench-snapshot -->\n)(?P<body>.*?)(?P<close><!-- end bench-snapshot -->)", re.S)
TIMINGS_BLOCK = re.compile(r"(?P<open><!-- timings-snapshot -->\n)(?P<body>.*?)(?P<close><!-- end timings-snapshot -->)",
                           re.S)
COMMANDS = ["make test", "make soak", "make reproduce", "make perf"]
CALIBRATION = "BM_Calibration/192"

# (what, the benchmark column, figures). A figure is a benchmark's time, ("ratio", a, b): the
# time of a over b's, or ("counter", benchmark, name): one of its counters.
ROWS = [
    ("Atlas (nv = 33): FK / CRBA / RNEA / ABA", "`BM_Atlas*`",
     ["BM_AtlasForwardKinematics", "BM_AtlasCrba", "BM_AtlasRnea", "BM_AtlasAba"]),
    ("Atlas: RNEA / ABA derivatives", "`BM_Atlas*Derivatives`",
     ["BM_AtlasRneaDerivatives", "BM_AtlasAbaDerivatives"]),
    ("penalty step, box_drop planar / 3D", "`BM_PenaltyStep`", ["BM_PenaltyStep/planar", "BM_PenaltyStep/spatial"]),
    ("penalty derivatives, planar / 3D", "`BM_PenaltyDerivatives`",
     ["BM_PenaltyDerivatives/planar", "BM_PenaltyDerivatives/spatial"]),
    ("silico step, box_drop polygon at rest (100 Hz) / bilevel on the same step", "`BM_PlanarStep`",
     ["BM_PlanarStep/silico", "BM_PlanarStep/bilevel"]),
    ("silico derivatives of that step", "`BM_SilicoDerivatives`", ["BM_SilicoDerivatives"]),
    ("silico step, 3D cube: pyramid / second-order cone", "`BM_SpatialBoxStep`",
     ["BM_SpatialBoxStep/pyramid", "BM_SpatialBoxStep/soc"]),
    ("silico, column of 8 cubes at rest: dense LU / `linear_solver=sparse_lu`", "`BM_SilicoColumnStep/*/8`",
     ["BM_SilicoColumnStep/dense_lu/8", "BM_SilicoColumnStep/sparse_lu/8"]),
    ("MuJoCo step, cube at rest (dt 2 / 10 ms), dropped (dt 2 / 10 ms)", "`BM_MujocoBox*Step`",
     ["BM_MujocoBoxRestingStep/dt_2ms", "BM_MujocoBoxRestingStep/dt_10ms", "BM_MujocoBoxImpactStep/dt_2ms",
      "BM_MujocoBoxImpactStep/dt_10ms"]),
    ("MuJoCo derivatives of the cube (finite differences)", "`BM_MujocoBoxDerivatives`", ["BM_MujocoBoxDerivatives"]),
    ("DART step: dropped cube / Atlas", "`BM_DartBoxDropStep`, `BM_DartAtlasStep`",
     ["BM_DartBoxDropStep", "BM_DartAtlasStep"]),
    ("nimble on Atlas: warm-started / cold / cold with `dantzig_cycling_cfm=1e-10`", "`BM_NimbleAtlasStep`",
     ["BM_NimbleAtlasStep/warm", "BM_NimbleAtlasStep/cold", "BM_NimbleAtlasStep/cold_retry"]),
    ("nimble on Atlas: five step Jacobians / with the link masses", "`BM_NimbleAtlasJacobians`",
     ["BM_NimbleAtlasJacobians/five", "BM_NimbleAtlasJacobians/with_masses"]),
    ("nimble on Atlas: the step's VJP / with the link masses", "`BM_NimbleAtlasVjp`",
     ["BM_NimbleAtlasVjp/five", "BM_NimbleAtlasVjp/with_masses"]),
    ("nimble on the half cheetah: step / five Jacobians", "`BM_NimbleHalfCheetah*`",
     ["BM_NimbleHalfCheetahStep", "BM_NimbleHalfCheetahJacobians/five"]),
    ("sdrs, sliding box: step / derivatives", "`BM_SdrsModel*`", ["BM_SdrsModelStep", "BM_SdrsModelDerivatives"]),
    ("sdrs hull pair, 20 + 20 vertices: cold / warm / twist Hessian cold / warm", "`BM_SdrsHullPair20*`",
     ["BM_SdrsHullPair20Cold", "BM_SdrsHullPair20Warm", "BM_SdrsHullPair20TwistCold", "BM_SdrsHullPair20TwistWarm"]),
    ("ipc, box: step / derivatives", "`BM_IpcModelStep/box`, `BM_IpcModelDerivatives`",
     ["BM_IpcModelStep/box", "BM_IpcModelDerivatives"]),
    ("longrange triangle-pair solve with its Hessian: cold / warm", "`BM_TrianglePair*`",
     ["BM_TrianglePairCold", "BM_TrianglePairWarm"]),
    ("billiards: a longrange step / on the 12-triangle ground box", "`BM_BilliardsStep/longrange*`",
     ["BM_BilliardsStep/longrange", "BM_BilliardsStep/longrange_ground_box"]),
    ("billiards: longrange's Newton iterations / line-search trials in that step", "`BM_BilliardsStep/longrange`",
     [("counter", "BM_BilliardsStep/longrange", "newton"), ("counter", "BM_BilliardsStep/longrange", "line_search")]),
    ("billiards: longrange's contact terms, value / with Hessian; exact triangle pairs", "`BM_BilliardsContact`",
     ["BM_BilliardsContact/value", "BM_BilliardsContact/hessian", ("counter", "BM_BilliardsContact/value", "exact_pairs")]),
    ("billiards: longrange's Derivatives", "`BM_BilliardsDerivatives`", ["BM_BilliardsDerivatives/longrange"]),
    ("billiards: an ipc step / a MuJoCo step", "`BM_BilliardsStep/{ipc,mujoco}`",
     ["BM_BilliardsStep/ipc", "BM_BilliardsStep/mujoco"]),
    ("billiards: a longrange step in MuJoCo steps (issue 17: at most 100)", "",
     [("ratio", "BM_BilliardsStep/longrange", "BM_BilliardsStep/mujoco")]),
    ("scm, box_drop cube on the ground (600 points): step / derivatives", "`BM_ScmBox*`",
     ["BM_ScmBoxStep", "BM_ScmBoxDerivatives"]),
    ("scm, force_profile probe 1 cm deep: skipping small weights / every pair", "`BM_ScmProbeStep`",
     ["BM_ScmProbeStep/skip", "BM_ScmProbeStep/all_pairs"]),
    ("scm, T-push with 4224 + 96 patches: Euler / RK4", "`BM_ScmTPushStep/*_4k`",
     ["BM_ScmTPushStep/euler_4k", "BM_ScmTPushStep/rk4_4k"]),
    ("the same with `skip_out_of_reach=false`", "`BM_ScmTPushStep/*_4k_far_pairs`",
     ["BM_ScmTPushStep/euler_4k_far_pairs", "BM_ScmTPushStep/rk4_4k_far_pairs"]),
    ("scm, T-push with 28 + 6 patches: Euler / RK4", "`BM_ScmTPushStep/*_28`",
     ["BM_ScmTPushStep/euler_28", "BM_ScmTPushStep/rk4_28"]),
    ("scm, T-push 4k over 28 patches: Euler / RK4 (issue 21: at most 5)", "",
     [("ratio", "BM_ScmTPushStep/euler_4k", "BM_ScmTPushStep/euler_28"),
      ("ratio", "BM_ScmTPushStep/rk4_4k", "BM_ScmTPushStep/rk4_28")]),
    ("the calibration kernel (a dense Cholesky of 192)", "`BM_Calibration/192`", [CALIBRATION]),
]

UNITS = [("s", 1e9), ("ms", 1e6), ("us", 1e3), ("ns", 1.0)]  # largest first
TO_NS = dict(UNITS)


class MissingFigure(Exception):
    """A figure of the bench table that the snapshot (or a run) does not hold."""


def three_digits(v):
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}" if v >= 10 else f"{v:.2f}"


def time_text(ns):
    """(number, unit): the largest unit in which the time is at least 1."""
    for unit, scale in UNITS:
        if ns >= scale:
            return three_digits(ns / scale), unit
    return three_digits(ns), "ns"


def figure_text(snapshot, figure):
    marks = snapshot["benchmarks"]

    def entry(name):
        if name not in marks:
            raise MissingFigure(f"benchmark '{name}'")
        return marks[name]

    if isinstance(figure, str):
        return time_text(entry(figure)["time_ns"])
    kind, a, b = figure
    if kind == "ratio":
        return f"{three_digits(entry(a)['time_ns'] / entry(b)['time_ns'])}x", ""
    value = entry(a)["counters"].get(b)
    if value is None:
        raise MissingFigure(f"counter '{b}' of benchmark '{a}'")
    return f"{value:.0f}", ""


def cell(snapshot, figures):
    texts = [figure_text(snapshot, f) for f in figures]
    units = {u for _, u in texts}
    if len(units) == 1:  # one unit for the cell: "1.2 / 3.4 ms"
        return " / ".join(n for n, _ in texts) + (f" {units.pop()}" if texts[0][1] else "")
    return " / ".join(f"{n} {u}".strip() for n, u in texts)


def table(snapshot):
    head = (f"One run of the suite at {snapshot['commit'][:7]}{' (dirty)' if snapshot['dirty'] else ''}, "
            f"{snapshot['date'][:10]}, {snapshot['machine']}, {snapshot['statistic']}; the calibration kernel read "
            f"{snapshot['benchmarks'][CALIBRATION]['time_ns'] / 1e3:.0f} us (the perf baseline's machine: 200 us).\n\n")
    rows = ["| what | benchmark | figure |", "|---|---|---|"]
    for what, names, figures in ROWS:
        rows.append(f"| {what} | {names} | {cell(snapshot, figures)} |")
    return head + "\n".join(rows) + "\n"


def duration_text(seconds):
    minutes, secs = divmod(int(round(seconds)), 60)
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"


def timings_table(timings):
    """One row per command of COMMANDS, from its record in bench/timings.json."""
    records = {r["command"]: r for r in timings["runs"]}
    unknown = sorted(set(records) - set(COMMANDS))
    if unknown:
        sys.exit(f"readme_bench: {TIMINGS} times {unknown}, which are not among {COMMANDS}")
    rows = [f"Measured on {timings['machine']}.", ""]
    for command in COMMANDS:
        r = records.get(command)
        if r is None:
            rows.append(f"- **`{command}`**: not timed yet.")
            continue
        note = f" {r['note'][0].upper()}{r['note'][1:]}." if r.get("note") else ""
        rows.append(f"- **`{command}`**: {duration_text(r['duration_s'])} at {r['commit']}, {r['what']}.{note}")
    return "\n".join(rows) + "\n"


def take_snapshot(path):
    with open(path) as f:
        run = json.load(f)
    context = run.get("context", {})
    medians = [b for b in run["benchmarks"] if b.get("aggregate_name") == "median"]
    chosen = medians or [b for b in run["benchmarks"] if b.get("run_type", "iteration") == "iteration"]
    repetitions = max((int(b.get("repetitions", 1)) for b in chosen), default=1)
    marks = {}
    skip = {"name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
            "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name",
            "aggregate_unit", "label", "error_occurred", "error_message"}
    for b in chosen:
        if b.get("error_occurred"):
            continue
        marks[b["run_name"]] = {
            "time_ns": b["real_time"] * TO_NS[b["time_unit"]],
            "counters": {k: v for k, v in b.items() if k not in skip and isinstance(v, (int, float))},
        }
    snapshot = {
        "commit": context.get("git_commit", "unknown"),
        "dirty": context.get("git_dirty", "false") == "true",
        "date": context.get("date", "unknown"),
        "machine": f"{context.get('host_name', '?')}, {context.get('num_cpus', '?')} CPUs at "
                   f"{context.get('mhz_per_cpu', '?')} MHz",
        "statistic": f"medians of {repetitions} repetitions" if medians else "one repetition",
        "benchmarks": marks,
    }
    if CALIBRATION not in marks:
        sys.exit(f"readme_bench: {path} has no {CALIBRATION}: run the whole suite")
    try:
        table(snapshot)
    except MissingFigure as missing:  # the committed snapshot is kept
        sys.exit(f"readme_bench: {path} lacks the {missing} of the bench table: run the whole suite")
    with open(SNAPSHOT, "w") as f:
        json.dump(snapshot, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"readme_bench: wrote {SNAPSHOT} ({len(marks)} benchmarks at {snapshot['commit'][:10]})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--snapshot", metavar="BENCH_JSON", help="keep this run's figures as the snapshot")
    parser.add_argument("--doc", default=DOC)
    args = parser.parse_args()
    if args.snapshot:
        take_snapshot(args.snapshot)
        return 0
    with open(SNAPSHOT) as f:
        snapshot = json.load(f)
    with open(TIMINGS) as f:
        timings = json.load(f)
    try:
        stale = sync_blocks(args.doc, BLOCK, lambda m: table(snapshot), args.write, "readme_bench")
    except MissingFigure as missing:
        sys.exit(f"readme_bench: {SNAPSHOT} has no {missing}; take a new snapshot (--snapshot)")
    stale += sync_blocks(args.doc, TIMINGS_BLOCK, lambda m: timings_table(timings), args.write, "readme_bench")
    name = os.path.relpath(args.doc, ROOT)
    if args.write:
        print(f"readme_bench: {len(stale)} block(s) of {name} rewritten")
        return 0
    for match in stale:
        print(f"readme_bench: {name}'s {match.group('open').strip()} block differs from the records "
              f"({os.path.relpath(SNAPSHOT, ROOT)}, {os.path.relpath(TIMINGS, ROOT)}); "
              "run scripts/readme_bench.py --write", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
