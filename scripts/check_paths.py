#!/usr/bin/env python3
"""Fails when a comment or a doc cites a repository path that does not exist.

Scans the tracked text files (*.md, *.h, *.cc, *.py, *.sh, *.toml, CMakeLists.txt, Makefile)
for tokens that start with a top-level folder (bench/ ... trajectory/, TOP below) and checks
that each names a tracked file or folder. What a token may hold, and how it is checked:
- a placeholder, `<name>`, `<exp>`, ...: a wildcard for one path part; at least one tracked
  path must match (`experiments/<name>/README.md` holds because experiments/box_drop/README.md
  exists);
- a glob, `*_test.cc`: at least one tracked path must match;
- a brace set, `experiments/ssdf_iso/ssdf_iso.{h,cc}`: every alternative must exist; a brace
  without a comma, `results/{exp}/` (a Python format field), is a placeholder;
- a document named in capitals alone, `SNAPSHOT.md`: a tracked file must have that name;
- `#anchor` and a trailing `:line` are dropped, as is trailing punctuation;
- a generated output (GENERATED: what `arena run`, `make reproduce` and `make bench` write,
  which no clone holds) is accepted by its form only: `results/<experiment>/...` for a
  registered experiment's folder name or a placeholder, results/REPORT.md, results/report.json,
  results/bench/, plots/out/. results/paper/ is committed and checked like any path.
In C++ (.h, .cc) only the comments are read: an #include is checked by the compiler (and may
name a generated header), and a string literal is code, which its tests run (a test's scratch
tree cites no repository path). A CMakeLists.txt may cite a path relative to its own folder, as
CMake reads it. A token preceded by a word character, `/`, `.` or `-` is part of another path (`build/tests/`,
`/usr/share/...`) and is not a repository path. A path cut by a line break after a `/` (a
wrapped comment: `(experiments/` then `// tpush/tpush.h)`) is joined with the next line's first
word when that looks like a path's rest (it holds a `.`, `/`, `_`, `<` or `*`).

  scripts/check_paths.py [--root DIR] [FILE ...]   # exit 1 naming each missing path
"""
import argparse
import fnmatch
import os
import re
import subprocess
import sys

TOP = ["bench", "cmake", "config", "core", "docs", "experiments", "harness", "models", "plots", "results",
       "scenes", "scripts", "solvers", "tests", "trajectory"]
SUFFIXES = (".md", ".h", ".cc", ".py", ".sh", ".toml")
NAMES = ("CMakeLists.txt", "Makefile")

TOKEN = re.compile(r"(?<![\w/.\-])(?:" + "|".join(TOP) + r")/[\w./<>{}*,+\-]*")
TRAILING = ".,;:)-"
# A document named in capitals without its folder (README.md, SNAPSHOT.md): some tracked file
# (or the report, results/REPORT.md) must have that name.
BARE_DOC = re.compile(r"(?<![\w/.\-])[A-Z][A-Z_]*\.md\b")


def tracked_files(root):
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=root, check=True, capture_output=True).stdout
        return [p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):  # not a git clone: every file under root
        found = []
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
            found += [os.path.relpath(os.path.join(folder, f), root) for f in files]
        return found


def is_scanned(path):
    return path.endswith(SUFFIXES) or os.path.basename(path) in NAMES


def comments_only(text):
    """C++ text with everything but its comments blanked (newlines kept, so lines keep their numbers)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(text[i:end])
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(text[i:end])
            i = end
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            delim = text[i + 2:text.find("(", i + 2)]
            end = text.find(")" + delim + '"', i)
            end = n if end < 0 else end + len(delim) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i:j + 1]))
            i = j + 1
        else:
            out.append(c if c == "\n" else " ")
            i += 1
    return "".join(out)


def expand_braces(token):
    """`a.{h,cc}` -> [a.h, a.cc]; several sets expand as a product; `{exp}` is a placeholder."""
    match = re.search(r"\{([^{}]*)\}", token)
    if match is None:
        return [token]
    if "," not in match.group(1):
        return expand_braces(token[:match.start()] + "<" + match.group(1) + ">" + token[match.end():])
    out = []
    for alternative in match.group(1).split(","):
        out += expand_braces(token[:match.start()] + alternative + token[match.end():])
    return out


def clean(token):
    """The path a token cites: no anchor, no unbalanced brace or placeholder, no trailing punctuation."""
    token = token.split("#")[0]
    while token and (token[-1] in TRAILING or (token[-1] == "}" and token.count("{") < token.count("}"))):
        token = token[:-1]
    if token.count("{") > token.count("}"):  # `{...` cut off by a space: keep what precedes it
        token = token[:token.rfind("{")]
    if token.count("<") != token.count(">"):  # `<` of a C++ template or a comparison
        token = token[:token.rfind("<")]
    return token.rstrip("/.") + ("/" if token.endswith("/") else "")


class Tree:
    def __init__(self, files, experiments):
        self.files = set(files)
        self.basenames = {os.path.basename(f) for f in files}
        self.dirs = set()
        for f in files:
            parts = f.split("/")
            for i in range(1, len(parts)):
                self.dirs.add("/".join(parts[:i]))
        self.experiments = experiments

    def exists(self, path):
        """A tracked file or folder (a trailing / asks for a folder); wildcards need one match."""
        want_dir = path.endswith("/")
        path = path.rstrip("/")
        pattern = re.sub(r"<[^<>/]*>", "*", path)
        if "*" in pattern or "?" in pattern or "[" in pattern:
            pool = self.dirs if want_dir else self.files | self.dirs
            parts = pattern.count("/")
            return any(p.count("/") == parts and fnmatch.fnmatchcase(p, pattern) for p in pool)
        return path in self.dirs if want_dir else path in self.files or path in self.dirs

    def generated(self, path):
        """What a run, make reproduce or make bench writes: accepted by its form."""
        if path.startswith("plots/out/") or path.rstrip("/") == "plots/out":
            return True
        parts = path.rstrip("/").split("/")
        if parts[0] != "results" or len(parts) < 2:
            return False
        head = parts[1]
        if head in ("REPORT.md", "report.json", "bench"):
            return True
        return head in self.experiments or re.fullmatch(r"<[^<>]*>|\*", head) is not None


def experiment_names(files):
    """The experiments' folder names (each holds a config.toml), which name their results/ folders."""
    return {f.split("/")[1] for f in files if re.fullmatch(r"experiments/[^/]+/config\.toml", f)}


def scan(root, files, targets):
    tree = Tree(files, experiment_names(files))
    missing = []
    for target in targets:
        try:
            with open(os.path.join(root, target), encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        if target.endswith((".h", ".cc")):
            text = comments_only(text)
        here = os.path.dirname(target)
        lines = text.splitlines()
        for number, line in enumerate(lines, 1):
            for match in BARE_DOC.finditer(line):
                if match.group(0) not in tree.basenames | {"REPORT.md"}:
                    missing.append((target, number, match.group(0)))
            for match in TOKEN.finditer(line):
                token = match.group(0)
                if token.endswith("/") and match.end() == len(line.rstrip()) and number < len(lines):
                    rest = re.match(r"\s*(?://+|#+|\*+)?\s*([\w./<>{}*,+\-]+)", lines[number])
                    if rest and re.search(r"[./_<*]", rest.group(1)):  # a path's rest, not a word
                        token += rest.group(1)
                token = clean(token)
                for path in expand_braces(token):
                    if path.rstrip("/") in TOP:  # a bare top-level folder
                        continue
                    if tree.generated(path) or tree.exists(path):
                        continue
                    if os.path.basename(target) == "CMakeLists.txt" and here and tree.exists(here + "/" + path):
                        continue
                    missing.append((target, number, path))
    return missing


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("files", nargs="*", help="files to scan (default: every tracked text file)")
    args = parser.parse_args()
    files = tracked_files(args.root)
    targets = args.files or sorted(f for f in files if is_scanned(f))
    missing = scan(args.root, files, targets)
    for target, number, path in missing:
        print(f"{target}:{number}: cites {path}, which does not exist", file=sys.stderr)
    if missing:
        print(f"check_paths: {len(missing)} citation(s) of missing paths", file=sys.stderr)
        return 1
    print(f"check_paths: every repository path cited in {len(targets)} files exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
