#!/usr/bin/env python3
"""The paper-profile result tables of README and of each experiment's README
(experiments/<name>/README.md), generated from the committed snapshot results/paper/report.json
(scripts/paper_snapshot.py), so that no README can quote a number the snapshot does not hold. A
block

    <!-- paper-snapshot: box_drop stacking solve_time -->
    ...
    <!-- end paper-snapshot -->

is the table of every claim and observation of those experiments in the snapshot: description,
the paper's value, ours, the verdict. README's block

    <!-- paper-verdicts -->
    ...
    <!-- end paper-verdicts -->

is one row per experiment (each experiments/<name>/ with a config.toml): its paper and figures
(the snapshot's REPORT.md headings) and how many of its claims the snapshot judges reproduced, differs or not run (and its
observations), linked to its README. --write regenerates every block; --check (a ctest) exits 1
naming each block that differs from what the snapshot gives. Without --readme, every README.md
of the repository and docs/ page that holds a block.

  scripts/readme_results.py --check | --write [--readme FILE ...] [--report results/paper/report.json]
"""
import glob
import json
import os
import re
import sys

from readme_blocks import block_tool_parser, sync_blocks

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


VERDICTS = re.compile(r"(?P<open><!-- paper-verdicts -->\n)(?P<body>.*?)(?P<close><!-- end paper-verdicts -->)", re.S)
COUNTED = ["reproduced", "differs", "not_run", "observed"]


def experiment_folders():
    return sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(ROOT, "experiments", "*", "config.toml")))


def report_sources(report_md):
    """experiment -> its paper and figures, from the headings of the snapshot's REPORT.md."""
    with open(report_md) as f:
        return dict(re.findall(r"^## ([a-z0-9_]+) — (.+)$", f.read(), re.M))


def verdict_table(entries, readme, sources):
    """One row per experiment, in the report's order (by seed), then those without claims."""
    order = []
    for e in entries:
        if e["experiment"] not in order:
            order.append(e["experiment"])
    order += [name for name in experiment_folders() if name not in order]
    here = os.path.dirname(os.path.abspath(readme))
    rows = ["| experiment | paper | claims | reproduced | differs | not run | observed |",
            "|---|---|---|---|---|---|---|"]
    for name in order:
        chosen = [e for e in entries if e["experiment"] == name]
        observations = sum(1 for e in chosen if e.get("kind") == "observation")
        claims = f"{len(chosen) - observations}" + (f" + {observations} obs." if observations else "")
        counts = [sum(1 for e in chosen if e["verdict"] == v) for v in COUNTED]
        link = os.path.relpath(os.path.join(ROOT, "experiments", name, "README.md"), here)
        rows.append(f"| [`{name}`]({link}) | {cell(sources.get(name, '-'))} | {claims} | "
                    + " | ".join(str(c) for c in counts) + " |")
    return "\n".join(rows) + "\n"


def main():
    parser = block_tool_parser(__doc__)
    parser.add_argument("--readme", nargs="+", default=None)
    parser.add_argument("--report", default=os.path.join(ROOT, "results", "paper", "report.json"))
    args = parser.parse_args()
    with open(args.report) as f:
        entries = json.load(f)
    readmes = args.readme or documents_with_blocks()
    stale = []
    for readme in readmes:
        with open(readme) as f:
            text = f.read()
        if BLOCK.search(text):
            for match in sync_blocks(readme, BLOCK, lambda m: table(entries, m.group("names").split()), args.write,
                                     "readme_results"):
                stale.append((readme, match))
        if VERDICTS.search(text):
            sources = report_sources(os.path.join(os.path.dirname(args.report), "REPORT.md"))
            for match in sync_blocks(readme, VERDICTS, lambda m: verdict_table(entries, readme, sources), args.write,
                                     "readme_results"):
                stale.append((readme, match))
    if args.write:
        print(f"readme_results: {len(stale)} block(s) rewritten")
        return 0
    for readme, match in stale:
        what = f"paper-snapshot block '{match.group('names')}'" if "names" in match.groupdict() else "paper-verdicts block"
        print(f"readme_results: {os.path.relpath(readme, ROOT)}'s {what} differs from {args.report}; "
              "run scripts/readme_results.py --write", file=sys.stderr)
    return 1 if stale else 0


def documents_with_blocks():
    """README.md, every experiment's README and the docs pages that hold a paper-snapshot block."""
    candidates = [os.path.join(ROOT, "README.md")]
    candidates += sorted(glob.glob(os.path.join(ROOT, "experiments", "*", "README.md")))
    candidates += sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
    out = []
    for path in candidates:
        with open(path) as f:
            text = f.read()
        if BLOCK.search(text) or VERDICTS.search(text):
            out.append(path)
    return out


if __name__ == "__main__":
    sys.exit(main())
