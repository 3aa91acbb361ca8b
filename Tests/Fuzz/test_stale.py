"""Tests of stale.py's judgement: what counts as changed, and what counts as run.

    python3 -m unittest discover -s Tests/Fuzz -p 'test_*.py'

The coverage build and the replay need a toolchain and minutes; these tests cover the parts
that decide the verdict from their outputs, with small made-up diffs, headers and counts."""

import unittest

from stale import c_blocks, changed_c_functions, is_inert, parse_diff, reached_changes

DIFF = """\
diff --git a/Sources/A/One.swift b/Sources/A/One.swift
--- a/Sources/A/One.swift
+++ b/Sources/A/One.swift
@@ -3,0 +4,2 @@ struct One {
+    let added = 1
+    let also = 2
@@ -10 +12 @@ func f() {
-    return 1
+    return 2
@@ -20,3 +21,0 @@ func g() {
-    a()
-    b()
-    c()
diff --git a/Sources/A/Gone.swift b/Sources/A/Gone.swift
deleted file mode 100644
--- a/Sources/A/Gone.swift
+++ /dev/null
@@ -1,2 +0,0 @@
-func gone() {}
-func alsoGone() {}
"""

HEADER = """\
#include <openssl/sha.h>
// A comment (with parentheses).
static inline int shim_one(int x) { return x + 1; }
static inline int shim_two(int x) {
    return shim_one(x) * 2;
}
int shim_prototype(int x);
#define SHIM_CASE(K)   \\
    case K: ok = 1;    \\
        break;
static inline int shim_switch(int kind) {
    int ok = 0;
    switch (kind) { SHIM_CASE(1) default: break; }
    return ok;
}
static inline int shim_alone(void) {
    return 7;
}
"""


class ParseDiffTests(unittest.TestCase):
    def test_new_side_lines_of_each_hunk(self):
        changed = parse_diff(DIFF)
        # Added lines 4-5, the replaced line 12, and the two lines around the deletion at 21.
        self.assertEqual(changed, {"Sources/A/One.swift": {4, 5, 12, 21, 22}})

    def test_a_deleted_file_marks_nothing(self):
        self.assertNotIn("Sources/A/Gone.swift", parse_diff(DIFF))

    def test_no_diff_is_no_change(self):
        self.assertEqual(parse_diff(""), {})


class CHeaderTests(unittest.TestCase):
    def test_blocks_are_functions_and_macros_not_prototypes(self):
        blocks = {(b.name, b.kind, b.first, b.last) for b in c_blocks(HEADER)}
        self.assertEqual(blocks, {
            ("shim_one", "function", 3, 3),
            ("shim_two", "function", 4, 6),
            ("SHIM_CASE", "macro", 8, 10),
            ("shim_switch", "function", 11, 15),
            ("shim_alone", "function", 16, 18),
        })

    def test_a_changed_macro_changes_the_functions_that_use_it(self):
        functions, loose = changed_c_functions(HEADER, {9})
        self.assertEqual(functions, {"shim_switch"})
        self.assertEqual(loose, [])

    def test_a_changed_function_changes_its_callers_in_the_header(self):
        functions, _ = changed_c_functions(HEADER, {3})
        self.assertEqual(functions, {"shim_one", "shim_two"})

    def test_lines_outside_any_definition_are_loose(self):
        functions, loose = changed_c_functions(HEADER, {1, 7})
        self.assertEqual((functions, loose), (set(), [1, 7]))


class ReachedTests(unittest.TestCase):
    SOURCES = {
        "Sources/A/One.swift": [
            "struct One {",
            "    // Why the value changed.",
            "",
            "    func f() -> Int {",
            "        return shim_two(1)",
            "    }",
            "    func g() -> Int { shim_alone() }",
            "}",
        ],
        "Sources/C/shim.h": HEADER.splitlines(),
    }

    def reached(self, changed, counts):
        return reached_changes(changed, counts, lambda p: self.SOURCES.get(p, []),
                               ["Sources/A/One.swift"])

    def test_a_changed_line_that_runs_is_reached(self):
        reached, _ = self.reached({"Sources/A/One.swift": {5}}, {"Sources/A/One.swift": {5: 3}})
        self.assertEqual(len(reached), 1)
        self.assertIn("Sources/A/One.swift:5 (run 3 times)", reached[0])

    def test_a_changed_line_that_never_ran_is_not(self):
        reached, _ = self.reached({"Sources/A/One.swift": {5}}, {"Sources/A/One.swift": {5: 0}})
        self.assertEqual(reached, [])

    def test_comments_and_blank_lines_in_a_region_that_ran_do_not_count(self):
        counts = {"Sources/A/One.swift": {2: 9, 3: 9}}
        reached, _ = self.reached({"Sources/A/One.swift": {2, 3}}, counts)
        self.assertEqual(reached, [])

    def test_lines_past_the_end_of_the_file_are_ignored(self):
        reached, _ = self.reached({"Sources/A/One.swift": {40}}, {"Sources/A/One.swift": {40: 1}})
        self.assertEqual(reached, [])

    def test_changed_c_runs_when_a_swift_call_of_it_or_its_callers_ran(self):
        counts = {"Sources/A/One.swift": {5: 4, 7: 0}}
        reached, _ = self.reached({"Sources/C/shim.h": {3}}, counts)
        # shim_one changed; shim_two calls it and ran through One.swift:5.
        self.assertEqual(len(reached), 1)
        self.assertIn("shim_two changed, called at Sources/A/One.swift:5", reached[0])

    def test_changed_c_that_no_swift_line_ran_is_not_reached(self):
        counts = {"Sources/A/One.swift": {5: 4, 7: 0}}
        reached, _ = self.reached({"Sources/C/shim.h": {17}}, counts)
        self.assertEqual(reached, [])

    def test_a_changed_include_is_a_note_not_a_verdict(self):
        reached, notes = self.reached({"Sources/C/shim.h": {1, 2}}, {})
        self.assertEqual(reached, [])
        self.assertEqual(len(notes), 1)
        self.assertIn("lines 1 changed outside any function", notes[0])

    def test_a_changed_declaration_in_a_file_that_ran_is_a_note(self):
        # Line 1 (`struct One {`) has no count; line 5 ran, so the file is one the target runs.
        counts = {"Sources/A/One.swift": {5: 2}}
        reached, notes = self.reached({"Sources/A/One.swift": {1}}, counts)
        self.assertEqual(reached, [])
        self.assertEqual(len(notes), 1)
        self.assertIn("One.swift lines 1 changed outside any code with a line count", notes[0])

    def test_a_changed_declaration_in_a_file_that_never_ran_is_silent(self):
        counts = {"Sources/A/One.swift": {5: 0}}
        self.assertEqual(self.reached({"Sources/A/One.swift": {1}}, counts), ([], []))

    def test_inert_lines(self):
        for line in ["", "   ", "// x", "/// doc", " * star", "#undef X", "#pragma once"]:
            self.assertTrue(is_inert(line), line)
        for line in ["let x = 1", "#include <a.h>", "}"]:
            self.assertFalse(is_inert(line), line)


if __name__ == "__main__":
    unittest.main()
