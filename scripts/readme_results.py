#!/usr/bin/env python3
"""README's paper-profile result tables, generated from the committed snapshot
results/paper/report.json (scripts/paper_snapshot.py), so that README cannot quote a number the
snapshot does not hold. In README, a block

    <!-- paper-snapshot: box_drop stacking solve_time -->
    ...
    <!-- end paper-snapshot -->

is the table of every claim and observation of those experiments in the snapshot: description,
the paper's value, ours, the verdict. --write regenerates every block; --check (a ctest) exits 1
naming each block that differs from what the snapshot gives.

  scripts/readme_results.py --check | --write [--readme README.md] [--report results/paper/report.json]
"""
import argparse
import json
import os
import re
import sys

from readme_blocks import sync_blocks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLOCK = re.compile(r"(?P<open><!-- paper-snapshot: (?P<names>[a-z0-9_ ]+) -->\n)(?P<body>.*?)(?P<close><!-- end paper-snapshot -->)",
                   re.S)


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


LONG_NUMBER = re.compile(r"\d+\.\d{5,}(?:e[-+]?\d+)?")


def ours_text(entry):
    """Ours as the report gives it, numbers to 4 significant digits (also inside a text)."""
    ours = entry.get("ours")
    if ours is None:
        return "not run"
    if isinstance(ours, float):
        ours = f"{ours:.4g}"
    ours = LONG_NUMBER.sub(lambda m: f"{float(m.group(0)):.4g}", str(ours))
    # A text without a measured number ("no plan: ...") takes no unit.
    unit = "" if "ours_value" in entry and entry["ours_value"] is None else entry.get("unit") or ""
    return f"{ours} {unit}".strip()


def table(entries, experiments):
    rows = ["| claim | paper | ours | verdict |", "|---|---|---|---|"]
    for exp in experiments:
        chosen = [e for e in entries if e["experiment"] == exp]
        if not chosen:
            sys.exit(f"readme_results: the snapshot has no claim of experiment '{exp}'")
        for e in chosen:
            paper = f"{e['paper']} {e.get('unit') or ''}".strip() if e["paper"] else "-"
            if e.get("source"):
                paper += f" ({e['source']})"
            rows.append(f"| {cell(e['description'])} (`{e['id']}`) | {cell(paper)} | {cell(ours_text(e))} | "
                        f"{e['verdict']} |")
    return "\n".join(rows) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    parser.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    parser.add_argument("--report", default=os.path.join(ROOT, "results", "paper", "report.json"))
    args = parser.parse_args()
    with open(args.report) as f:
        entries = json.load(f)
    stale = sync_blocks(args.readme, BLOCK, lambda m: table(entries, m.group("names").split()), args.write,
                        "readme_results")
    if args.write:
        print(f"readme_results: {len(stale)} block(s) rewritten")
        return 0
    for match in stale:
        print(f"readme_results: README's paper-snapshot block '{match.group('names')}' differs from {args.report}; "
              "run scripts/readme_results.py --write", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
