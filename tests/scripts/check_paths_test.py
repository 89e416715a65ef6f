#!/usr/bin/env python3
"""scripts/check_paths.py on a small scratch tree: a cited path that does not exist is reported
(with its file and line), and what exists, placeholders, globs, brace sets, generated outputs,
C++ string literals and a CMakeLists.txt's own-folder paths are not."""
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import check_paths  # noqa: E402

# Built from parts, so that the real check of this file finds no missing path in it.
MISSING = "docs/" + "no_such_page.md"
FILES = {
    "docs/guide.md": "see docs/guide.md, experiments/<name>/config.toml and experiments/box/box.{h,cc}.\n",
    "experiments/box/box.h": '// The box (experiments/box/box.cc; tests in experiments/box/*_test.cc).\n'
                             'const char* kScratch = "experiments/' + 'toy/config.toml";\n',
    "experiments/box/box.cc": "",
    "experiments/box/box_test.cc": "",
    "experiments/box/config.toml": "# writes results/box/box.csv and results/<exp>/<exp>.json\n",
    "tests/CMakeLists.txt": "add(area/*_test.cc)\n",
    "tests/area/a_test.cc": "",
}


def run(files):
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        names = sorted(files)
        missing = check_paths.scan(root, names, [n for n in names if check_paths.is_scanned(n)])
        return [(target, line, path) for target, line, path in missing]


class CheckPaths(unittest.TestCase):
    def test_every_form_that_exists_passes(self):
        self.assertEqual(run(FILES), [])

    def test_a_missing_path_is_reported_with_its_file_and_line(self):
        files = dict(FILES)
        files["docs/guide.md"] += "and, on line 2, " + MISSING + ".\n"
        self.assertEqual(run(files), [("docs/guide.md", 2, MISSING)])

    def test_each_alternative_of_a_brace_set_must_exist(self):
        files = dict(FILES)
        files["docs/other.md"] = "experiments/box/box.{h,c" + "pp}\n"
        self.assertEqual(run(files), [("docs/other.md", 1, "experiments/box/box." + "cpp")])

    def test_a_placeholder_or_glob_needs_one_match(self):
        files = dict(FILES)
        files["docs/other.md"] = "experiments/<name>/plot." + "py and models/*_" + "bench.cc\n"
        self.assertEqual(sorted(p for _, _, p in run(files)), ["experiments/<name>/plot." + "py",
                                                              "models/*_" + "bench.cc"])

    def test_a_cpp_comment_is_checked(self):
        files = dict(FILES)
        files["experiments/box/box.cc"] = "int x;  // see " + MISSING + "\n"
        self.assertEqual(run(files), [("experiments/box/box.cc", 1, MISSING)])

    def test_results_of_an_unknown_experiment_are_not_generated_output(self):
        files = dict(FILES)
        files["docs/other.md"] = "results/" + "reference/box/box.csv\n"
        self.assertEqual(len(run(files)), 1)


if __name__ == "__main__":
    unittest.main()
