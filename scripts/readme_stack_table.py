"""README.md's "choosing a model" table (issue 52): per model, the timesteps and mass ratios at
which it holds a resting two-cube stack, from solver_compare's committed quick reference
(tests/data/reference/solver_compare/solver_compare.csv; `make reproduce` writes the same run
to results/). The stack is mass_ratio_stack: a cube of 1 / sqrt(r) kg under one of sqrt(r) kg,
settled from 1 mm gaps and left 0.5 s; a model holds it at (r, dt) when one of its solver
settings ran every step without a failed or flagged step and kept both cubes within 1 cm of the
exact stack at the model's own resting gap (a barrier's; touching for the others). --write regenerates the block between <!-- stack-holds --> and
<!-- end stack-holds -->; --check (a ctest) exits 1 when it differs.

  scripts/readme_stack_table.py --check | --write [--csv FILE] [--readme FILE]
"""
import csv
import os
import re
import sys

from readme_blocks import block_tool_parser, sync_blocks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLOCK = re.compile(r"(?P<open><!-- stack-holds -->\n)(?P<body>.*?)(?P<close><!-- end stack-holds -->)", re.S)
HOLD_M = 1e-2  # 5 % of a cube's side: the barrier models rest a few mm apart, a cube passed through or thrown is far
# The models in README's order, with what they are.
MODELS = [("silico", "seed 000, relaxed complementarity (interior point)"),
          ("bilevel", "seed 000's baseline (planar only)"),
          ("scm", "seed 001, smooth point-cloud springs (explicit)"),
          ("nimble", "seed 002, LCP (Dantzig / PGS)"),
          ("sdrs", "seed 003, separating-plane barrier (implicit potential)"),
          ("longrange", "seed 004, long-range potential (implicit)"),
          ("ipc", "seed 004's baseline, IPC barrier (implicit)"),
          ("penalty", "reference spring-damper (explicit)"),
          ("mujoco", "MuJoCo 2.2.2 (soft constraints)"),
          ("dart", "DART 6.12 (LCP with error reduction)")]


def holds(row):
    failed = row["failed"].strip().lower() == "true"
    error = row["outcome_error_m"].strip()
    return not failed and error != "" and float(error) <= HOLD_M


def summary(rows, model):
    """'r <= R at dt ...' per timestep, from the model's stack rows."""
    mine = [r for r in rows if r["model"] == model and r["problem"] == "mass_ratio_stack"]
    if not mine:
        return "not run (planar only, or not in the comparison)"
    by_dt = {}
    for r in mine:
        by_dt.setdefault(float(r["timestep_s"]), {}).setdefault(float(r["mass_ratio"]), []).append(holds(r))
    parts = []
    for dt in sorted(by_dt, reverse=True):
        held = [ratio for ratio, runs in sorted(by_dt[dt].items()) if any(runs)]
        ratios = sorted(by_dt[dt])
        # The largest ratio below which every ratio held.
        best = None
        for ratio in ratios:
            if ratio not in held:
                break
            best = ratio
        parts.append(f"dt {dt:g} s: " + (f"r <= {best:g}" if best is not None else "none"))
    return "; ".join(parts)


def table(rows):
    ratios = sorted({float(r["mass_ratio"]) for r in rows if r["problem"] == "mass_ratio_stack"})
    lines = ["| model | what it is | holds a resting stack (mass ratio r of " +
             ", ".join(f"{x:g}" for x in ratios) + ") |", "|---|---|---|"]
    for model, what in MODELS:
        lines.append(f"| `{model}` | {what} | {summary(rows, model)} |")
    return "\n".join(lines) + "\n"


def main():
    parser = block_tool_parser(__doc__)
    parser.add_argument("--csv", default=os.path.join(ROOT, "tests", "data", "reference", "solver_compare",
                                                      "solver_compare.csv"))
    parser.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    args = parser.parse_args()
    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    stale = sync_blocks(args.readme, BLOCK, lambda m: table(rows), args.write, "readme_stack_table")
    if args.write:
        print(f"readme_stack_table: {len(stale)} block(s) rewritten")
        return 0
    if stale:
        print(f"readme_stack_table: {os.path.relpath(args.readme, ROOT)}'s stack-holds block differs from {args.csv}; "
              "run scripts/readme_stack_table.py --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
