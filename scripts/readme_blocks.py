"""Blocks of README.md and docs generated from committed data (scripts/readme_results.py: the
paper-snapshot tables; scripts/readme_bench.py: docs/timings.md):
each block is a pair of HTML comments with generated text between them. A block's pattern has
the named groups `open` (the opening comment and its newline), `body` and `close`."""
import argparse
import sys


def sync_blocks(readme_path, pattern, fresh_body, write, tool):
    """Regenerates every block of `pattern` in the README with fresh_body(match). Writes the
    README when `write`; returns the matches whose body differed from the fresh one."""
    with open(readme_path) as f:
        readme = f.read()
    if pattern.search(readme) is None:
        sys.exit(f"{tool}: {readme_path} has no block of the form {pattern.pattern!r}")
    stale = []

    def regenerate(match):
        fresh = fresh_body(match)
        if fresh != match.group("body"):
            stale.append(match)
        return match.group("open") + fresh + match.group("close")

    updated = pattern.sub(regenerate, readme)
    if write:
        with open(readme_path, "w") as f:
            f.write(updated)
    return stale


def block_tool_parser(doc):
    """The command line every block tool shares: --check (a ctest) or --write, exactly one."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    return parser
