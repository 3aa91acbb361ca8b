"""Tests of seeds.py's `--target` form: the `// seeds:` header line of each fuzz target.

    python3 -m unittest discover -s Tests/Fuzz -p 'test_*.py'
"""

import unittest
from pathlib import Path

from seeds import SEED_KINDS, target_kinds

TARGETS = sorted(p.name[len("fuzz-"):] for p in (Path(__file__).parent / "Sources").glob("fuzz-*"))


class TargetKindsTests(unittest.TestCase):
    def test_every_target_names_kinds_that_exist(self):
        self.assertEqual(len(TARGETS), 20)
        for target in TARGETS:
            kinds = target_kinds(target)
            self.assertTrue(kinds, target)
            self.assertTrue(set(kinds) <= set(SEED_KINDS), f"{target}: {kinds}")

    def test_reads_the_header_line_as_words(self):
        self.assertEqual(target_kinds("jwk"), ["jwk-keys"])
        self.assertEqual(target_kinds("belvo"), ["belvo-documents", "webauthn-json"])

    def test_an_unknown_target_is_an_error(self):
        with self.assertRaises(SystemExit) as raised:
            target_kinds("no-such-target")
        self.assertIn("no fuzz target", str(raised.exception.code))


if __name__ == "__main__":
    unittest.main()
