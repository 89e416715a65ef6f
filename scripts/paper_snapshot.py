#!/usr/bin/env python3
"""The committed snapshot of paper-profile results, results/paper/ (`make reproduce PROFILE=paper`
ends with it; run it alone to add or refresh some experiments).

For each experiment given (default: every results/<E>/ whose sidecar says profile "paper"), copies
its CSV and sidecar into results/paper/<E>/ and draws its figures into results/paper/figures/;
experiments already in the snapshot and not given are kept. Then `arena report` judges the
snapshot (results/paper/REPORT.md, report.json) and SNAPSHOT.md records, per experiment, the
commit, machine, date and the `arena run` command that produced it, so every number in the
snapshot says where it came from. README's paper-profile tables are generated from report.json
(scripts/readme_results.py), and a test fails when README and the snapshot disagree.

  scripts/paper_snapshot.py --arena build/bin/arena [--python /usr/bin/python3] [EXPERIMENT...]
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "results")
SNAPSHOT = os.path.join(RESULTS, "paper")


def read_sidecar(folder, exp):
    path = os.path.join(folder, exp, exp + ".json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def paper_runs():
    """Experiments of results/ whose last run was the paper profile, finished."""
    found = []
    for path in sorted(glob.glob(os.path.join(RESULTS, "*", "*.json"))):
        exp = os.path.basename(os.path.dirname(path))
        if exp in ("paper", "reference") or os.path.basename(path) != exp + ".json":
            continue
        side = read_sidecar(RESULTS, exp)
        if side and side.get("profile") == "paper" and side.get("status") == "complete":
            found.append(exp)
    return found


def command_of(side):
    """The `arena run` command a sidecar records (models and --set values as given)."""
    cmd = ["arena", "run", side["experiment"], "--profile", side["profile"], "--models", *side["models"]]
    for o in side.get("overrides", []):
        cmd += ["--set", "'" + o + "'"]
    return " ".join(cmd)


def copy_experiment(exp, arena, python):
    side = read_sidecar(RESULTS, exp)
    if side is None or side.get("profile") != "paper" or side.get("status") != "complete":
        sys.exit(f"paper_snapshot: results/{exp}/ holds no finished paper-profile run")
    dest = os.path.join(SNAPSHOT, exp)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    for name in (exp + ".csv", exp + ".json"):
        shutil.copy2(os.path.join(RESULTS, exp, name), dest)
    figures = os.path.join(SNAPSHOT, "figures")
    subprocess.run([os.path.join(ROOT, "scripts", "draw-figures.sh"), arena, python, exp,
                    os.path.join(dest, exp + ".csv"), figures], check=True)
    print(f"paper_snapshot: {exp}")


def write_stamp():
    lines = ["# Paper-profile snapshot", "",
             "Written by `scripts/paper_snapshot.py`; judged in `REPORT.md` (claims) and `report.json`.",
             "Each experiment's sidecar (`<experiment>/<experiment>.json`) holds the full record. A commit",
             "marked (uncommitted changes) means the working tree differed from it when the run started.", "",
             "| experiment | commit | machine | threads | finished (UTC) | wall time | command |",
             "|---|---|---|---|---|---|---|"]
    for path in sorted(glob.glob(os.path.join(SNAPSHOT, "*", "*.json"))):
        exp = os.path.basename(os.path.dirname(path))
        side = read_sidecar(SNAPSHOT, exp)
        commit = side.get("git_commit", "?")[:10] + (" (uncommitted changes)" if side.get("git_dirty") else "")
        machine = f"{side.get('cpu', '?')}, {side.get('cores', '?')} cores"
        shard = side.get("merged_from")
        how = f"`{command_of(side)}`" + (f" in {len(shard)} shards" if shard else "")
        wall = side.get("duration_s")
        lines.append(f"| {exp} | {commit} | {machine} | {side.get('threads', '?')} | {side.get('end', '?')} | "
                     f"{'%.0f s' % wall if wall is not None else '?'} | {how} |")
    with open(os.path.join(SNAPSHOT, "SNAPSHOT.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arena", default=os.path.join(ROOT, "build", "bin", "arena"))
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("experiments", nargs="*")
    args = parser.parse_args()
    experiments = args.experiments or paper_runs()
    if not experiments:
        sys.exit("paper_snapshot: no finished paper-profile run in results/")
    for exp in experiments:
        copy_experiment(exp, args.arena, args.python)
    write_stamp()
    subprocess.run([args.arena, "report", "--results", SNAPSHOT, "--plots", os.path.join(SNAPSHOT, "figures")],
                   check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
