#!/usr/bin/env python3
"""Tests of check_tidy.py: each rule fails on a tree that breaks it and passes on one that keeps
it (files written to a temporary folder, checked by path)."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_tidy.py")


def run(root, *paths, extra=()):
    p = subprocess.run(
        [sys.executable, CHECK, "--root", root, *extra, *paths], capture_output=True, text=True
    )
    return p.returncode, p.stdout


def write(root, rel, text):
    full = os.path.join(root, rel)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)
    return rel


def function(name, body_lines):
    return f"int {name}(int x) {{\n" + "  x += 1;\n" * body_lines + "  return x;\n}\n"


def logic(v):
    # six lines of the same shape with other names and numbers
    return (
        f"  const int {v}x = load_{v}(3);\n  if ({v}x > 4) store_{v}({v}x, 5);\n"
        f"  for (int i = 0; i < {v}x; ++i) step_{v}(i);\n  {v}y = mix({v}x, {v}y) * 2;\n"
        f'  while (more_{v}()) {v}y += next_{v}(1);\n  return finish_{v}({v}y, "{v}");\n'
    )


class CheckTidy(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_long_file_fails(self):
        rel = write(self.root, "a/long.py", "x = 1\n" * 601)
        rc, out = run(self.root, rel)
        self.assertEqual(rc, 1)
        self.assertIn("a/long.py:1: 601 lines", out)
        rel = write(self.root, "a/ok.sh", "echo\n" * 600)
        self.assertEqual(run(self.root, rel)[0], 0)

    def test_long_function_fails(self):
        text = (
            "namespace n {\n"
            + function("short_one", 97)
            + "struct S {\n  "
            + function("long_one", 99).replace("\n", "\n  ")
            + "};\n}  // namespace n\n"
        )
        rel = write(self.root, "b/f.cpp", text)
        rc, out = run(self.root, rel)
        self.assertEqual(rc, 1)
        self.assertIn("function long_one is 102 lines", out)
        self.assertNotIn("short_one", out)

    def test_lambdas_and_strings_do_not_confuse_the_scan(self):
        body = "  auto f = [](int y) { return y; };\n  const char* s = \"{\";\n  char c = '}';\n"
        text = (
            "int g() {\n"
            + body * 40
            + "  return 0;\n}\n"
            + 'const char* t = R"({{)";\n'
            + function("after", 101)
        )
        rel = write(self.root, "b/g.cpp", text)
        rc, out = run(self.root, rel)
        self.assertIn("function g is 123 lines", out)
        self.assertIn("function after is 104 lines", out)

    def test_long_python_function_fails(self):
        body, inner = "    x += 1\n", "        x += 1\n"
        text = (
            "import os\n\n\ndef short_one(x):\n" + body * 98 + "    return x\n\n\n"
            "class C:\n    @staticmethod\n    def long_one(x):\n"
            + inner * 99
            + "        return x\n\n\ndef outer():\n    def inner(x):\n"
            + inner * 100
            + "        return x\n    return inner\n"
        )
        rel = write(self.root, "e/f.py", text)
        rc, out = run(self.root, rel)
        self.assertEqual(rc, 1)
        self.assertIn("e/f.py:107: function long_one is 102 lines", out)  # from the decorator
        self.assertIn("function inner is 102 lines", out)
        self.assertIn("function outer is 104 lines", out)
        self.assertNotIn("short_one", out)
        rel = write(self.root, "e/bad.py", "def f(:\n")
        rc, out = run(self.root, rel)
        self.assertEqual(rc, 1)
        self.assertIn("e/bad.py:1: <syntax error", out)

    def test_long_sv_function_task_and_always_block_fail(self):
        stmt = "    x = x + 1;\n"
        case = (
            "    unique case (s_q)\n      2'd0: begin y = 1'b1; end\n      default: y = 1'b0;\n"
            "    endcase\n"
        )
        text = (
            'module m (input logic clk_i);\n  import "DPI-C" function int dpi(int a);\n'
            "  function automatic int short_f(int x);\n" + stmt * 97 + "    return x;\n"
            "  endfunction\n  function automatic int long_f(int x);\n"
            + stmt * 98
            + "    return x;\n  endfunction\n  task long_t;\n"
            + stmt * 100
            + "  endtask\n"
            "  always_comb begin  // begin\n" + case + stmt * 95 + "  end\n"
            "  always_ff @(posedge clk_i) if (x) begin\n" + case + stmt * 94 + "  end else\n"
            "    x <= 0;\n"
            "  always_ff @(posedge clk_i) begin\n" + case + "  end\n"
            '  /* always_comb begin */\n  always @* y = "end";\nendmodule\n'
        )
        rel = write(self.root, "rtl/m.sv", text)
        rc, out = run(self.root, rel)
        self.assertEqual(rc, 1)
        self.assertIn("function long_f is 101 lines", out)
        self.assertIn("function long_t is 102 lines", out)
        self.assertIn("block always_comb is 101 lines", out)
        self.assertIn("block always_ff is 101 lines", out)
        self.assertNotIn("short_f", out)
        self.assertNotIn("dpi", out)
        self.assertEqual(out.count("always_ff"), 1, out)  # the short block after the long one

    def test_repeated_block_in_controller_fails(self):
        a = write(self.root, "controller/a.cpp", "void fa() {\n" + logic("p") + "}\n")
        b = write(self.root, "controller/b.cpp", "void fb() {\n" + logic("q") + "}\n")
        rc, out = run(self.root, a, b)
        self.assertEqual(rc, 1)
        self.assertIn("6 lines of the same shape", out)
        # outside controller/ the same pair is not checked
        c = write(self.root, "tests/a.cpp", "void fa() {\n" + logic("p") + "}\n")
        d = write(self.root, "tests/b.cpp", "void fb() {\n" + logic("q") + "}\n")
        self.assertEqual(run(self.root, c, d)[0], 0)

    def test_history_in_code_and_docs_fails(self):
        # the phrases built from pieces, so that this file does not match itself
        cases = {
            "d/a.md": "Fixed on " + "this bra" + "nch.\n",
            "d/b.cpp": "// see iss" + "ue 12\n",
            "d/c.sh": "# since 2026" + "-11-25 the default\n",
            "d/e.md": "Since bra" + "nch rl-tie the tie-break\n",
            "d/f.md": "Bef" + "ore, the sweep started in a GC storm.\n",
            "d/g.cpp": "  // 209 s. Bef" + "ore: the drive stalled\n",
            "d/h.md": "read mean 1.061 (wa" + "s 1.306)\n",
            "d/i.md": "208 runs, re-r" + "un at a885f1c: the same\n",
            "d/j.md": "Re-meas" + "ured on 2026-11-28 (main after 3f8c5fe)\n",
            "d/k.md": "An audit named divergences. Fix" + "ed or added:\n",
            "d/l.md": "Bef" + "ore the core's restructuring they were 3 cycles\n",
            "d/m.md": "(at 6567be4, bef" + "ore the arrivals change: 4.74x)\n",
        }
        for rel, text in cases.items():
            write(self.root, rel, text)
            rc, out = run(self.root, rel)
            self.assertEqual(rc, 1, rel)
            self.assertIn(f"{rel}:1:", out)
        ok = write(
            self.root,
            "d/ok.md",
            "Measured 2026-11-25 with `ssdtlm run`; the enabled "
            "bra" + "nch of the if.\nBefore the first scan every "
            "sample earns v0; nullptr before, and for the rest.\n"
            "Main at 0b6b99c (the waste was 3%); fixed or tuned.\n",
        )
        self.assertEqual(run(self.root, ok), (0, ""))


if __name__ == "__main__":
    unittest.main()
