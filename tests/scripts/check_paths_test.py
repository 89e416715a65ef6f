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

# The scratch tree's paths are written with ":/" for "/" (tree() puts the slash back), so that
# the real check of this file (PathsCitedExist) does not read them as the repository's.
MISSING = "docs:/no_such_page.md"
FIXTURE = {
    "docs:/guide.md": "see docs:/guide.md, experiments:/<name>/config.toml and experiments:/box/box.{h,cc}.\n",
    "experiments:/box/box.h": "// The box (experiments:/box/box.cc; tests in experiments:/box/*_test.cc).\n"
                              'const char* kScratch = "experiments:/toy/config.toml";\n',
    "experiments:/box/box.cc": "",
    "experiments:/box/box_test.cc": "",
    "experiments:/box/config.toml": "# writes results:/box/box.csv and results:/<exp>/<exp>.json\n",
    "tests:/CMakeLists.txt": "add(area/*_test.cc)\n",
    "tests:/area/a_test.cc": "",
}


def run(fixture):
    """check_paths.scan of the fixture's tree, ":/" read as "/"."""
    files = {path.replace(":/", "/"): text.replace(":/", "/") for path, text in fixture.items()}
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        names = sorted(files)
        return check_paths.scan(root, names, [n for n in names if check_paths.is_scanned(n)])


def slash(text):
    return text.replace(":/", "/")


class CheckPaths(unittest.TestCase):
    def with_doc(self, text, name="docs:/other.md"):
        fixture = dict(FIXTURE)
        fixture[name] = fixture.get(name, "") + text
        return run(fixture)

    def test_every_form_that_exists_passes(self):
        self.assertEqual(run(FIXTURE), [])

    def test_a_missing_path_is_reported_with_its_file_and_line(self):
        self.assertEqual(self.with_doc("and, on line 2, " + MISSING + ".\n", "docs:/guide.md"),
                         [(slash("docs:/guide.md"), 2, slash(MISSING))])

    def test_each_alternative_of_a_brace_set_must_exist(self):
        self.assertEqual(self.with_doc("experiments:/box/box.{h,cpp}\n"),
                         [(slash("docs:/other.md"), 1, slash("experiments:/box/box.cpp"))])

    def test_a_placeholder_or_glob_needs_one_match(self):
        self.assertEqual(sorted(p for _, _, p in self.with_doc("experiments:/<name>/plot.py and models:/*_bench.cc\n")),
                         [slash("experiments:/<name>/plot.py"), slash("models:/*_bench.cc")])

    def test_a_cpp_comment_is_checked(self):
        self.assertEqual(self.with_doc("int x;  // see " + MISSING + "\n", "experiments:/box/box.cc"),
                         [(slash("experiments:/box/box.cc"), 1, slash(MISSING))])

    def test_a_path_wrapped_after_a_slash_is_joined(self):
        self.assertEqual(self.with_doc("// (experiments:/\n// box/box.cpp)\n", "experiments:/box/box.cc"),
                         [(slash("experiments:/box/box.cc"), 1, slash("experiments:/box/box.cpp"))])

    def test_a_capitalised_document_needs_a_file_of_that_name(self):
        guide, missing = "GUIDE" + ".md", "CONVENTIONS" + ".md"  # in parts, as MISSING is
        self.assertEqual(self.with_doc(f"see {guide} and {missing}\n", "docs:/" + guide),
                         [(slash("docs:/" + guide), 1, missing)])

    def test_results_of_an_unknown_experiment_are_not_generated_output(self):
        self.assertEqual(self.with_doc("results:/reference/box/box.csv\n"),
                         [(slash("docs:/other.md"), 1, slash("results:/reference/box/box.csv"))])


if __name__ == "__main__":
    unittest.main()
