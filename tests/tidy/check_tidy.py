#!/usr/bin/env python3
"""The house rules that a reviewer would otherwise count by hand:

  - no source file (C++, SystemVerilog, Python, CMake, shell; tests included) over 600 lines;
  - no C++ function (free, member, lambda at namespace scope, TEST body) over 100 lines, except
    the declarative tables named in FUNCTION_EXCEPTIONS;
  - no repeated block of six or more same-shape lines in controller/ (names, numbers and strings
    aside), except the blocks named in DUPLICATE_EXCEPTIONS;
  - code, tests and docs say what is, not how it came to be: no issue numbers, no narratives of
    branches, no "since", "until" or "before" a date (a dated measurement with its command is
    fine), in any tracked text file except those in PENDING_HISTORY.

  check_tidy.py [--root DIR] [--max-file 600] [--max-function 100] [--window 6] [PATH ...]

Without PATHs it reads the files git tracks under --root (the repository by default). Exit
status 0 when the tree keeps the rules, 1 with one line per break (file:line: what).
"""
import argparse
import os
import re
import subprocess
import sys

SOURCE_EXT = (".cpp", ".cc", ".h", ".hpp", ".sv", ".svh", ".v", ".py", ".cmake", ".sh")
SOURCE_NAMES = ("CMakeLists.txt",)
CPP_EXT = (".cpp", ".cc", ".h", ".hpp")
# Declarative tables: one row per item, no control flow worth splitting.
FUNCTION_EXCEPTIONS = {
    ("controller/config_keys.cpp", "params"),  # the configuration key table
}
# Over the limits and not split yet: none. Add an entry only with the reason; the check fails on
# anything else.
PENDING_FILES: set = set()
PENDING_FUNCTIONS: set = set()
# Same-shape blocks in controller/ that are tables rather than copied logic: (file, first line's
# text, stripped). Empty: add a row only with the reason.
DUPLICATE_EXCEPTIONS = set()
# History in text: issue numbers, narratives of branches, "until DATE ...". The words are built
# from pieces so that this file does not match itself.
HISTORY = re.compile("|".join([
    r"\b[Ii]" + r"ssue #?[0-9]+",
    r"\bb" + r"ranch `?[a-z]+[0-9]+\b",
    r"\bb" + r"ranch `?[a-z]+-[a-z0-9-]+",
    r"\b(this|that|the [a-z0-9]+-[a-z0-9-]+) b" + r"ranch\b",
    r"\b(since|until|before|after) 20[0-9]{2}-[0-9]{2}-[0-9]{2}",
]))
TEXT_EXT = SOURCE_EXT + (".md", ".json", ".yaml", ".yml", ".txt", ".f", ".awk", ".tcl")
# Not rewritten yet: remove an entry when the file says what is.
PENDING_HISTORY: set = set()


def tracked_files(root, keep=None):
    out = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"check_tidy: git ls-files failed in {root}: {out.stderr.strip()}")
    return [f for f in out.stdout.splitlines() if (keep or is_source)(f)]


def is_text(path):
    return path.endswith(TEXT_EXT) or os.path.basename(path) in SOURCE_NAMES


def history_problems(root, paths):
    """One line per history phrase in the given text files (PENDING_HISTORY aside)."""
    out = []
    for rel in paths:
        if rel in PENDING_HISTORY or not is_text(rel):
            continue
        try:
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        for i, line in enumerate(lines, 1):
            m = HISTORY.search(line)
            if m:
                out.append(f"{rel}:{i}: '{m.group(0)}': say what is (history lives in git)")
    return out


def is_source(path):
    base = os.path.basename(path)
    return base.endswith(SOURCE_EXT) or base in SOURCE_NAMES


# ---- C++ text without comments, strings and preprocessor lines (line breaks kept) ----

def strip_cpp(text):
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":  # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("\n")
                    i += 2
                    continue
                i += 1
            continue
        line_start = False
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


CONTROL = re.compile(r"^\s*(if|else|for|while|switch|do|try|catch|return)\b")


def classify(header):
    """The kind of scope a '{' opens at namespace or class level, from the text before it."""
    h = " ".join(header.split())
    h = re.sub(r"^template\s*<[^{;]*?>\s*(?=[A-Za-z_])", "", h)
    if re.match(r"^(inline\s+)?namespace\b", h) or re.match(r'^extern\s*""', h):
        return "namespace"
    if re.match(r"^((typedef|export)\s+)?(class|struct|union)\b", h) and "(" not in h.split("{")[0]:
        return "class"
    if re.match(r"^(typedef\s+)?enum\b", h) or not h or CONTROL.match(h):
        return "other"
    if h.count("(") != h.count(")") or "(" not in h:
        return "other"
    if "operator" in h:
        return "function"
    # a lambda at namespace or class scope: counted as a function
    if re.search(r"=\s*\[[^\]]*\]\s*(\([^)]*\))?[^=]*$", h):
        return "function"
    depth = 0
    for ch in h:  # an '=' outside parentheses: an initialiser, not a function
        depth += ch == "("
        depth -= ch == ")"
        if ch == "=" and depth == 0:
            return "other"
    return "function"


def function_name(header):
    h = " ".join(header.split())
    m = re.search(r"([A-Za-z_~][\w:~]*(?:operator\s*\S+?)?)\s*\(", h)
    name = m.group(1) if m else h[:40]
    if re.match(r"^(TEST|TEST_F|TEST_P|TYPED_TEST)\s*\(", h):
        args = h[h.index("(") + 1:h.index(")")]
        name = args.replace(" ", "").replace(",", ".")
    return name.split("::")[-1] if "::" in name and not name.startswith("TEST") else name


def cpp_functions(text):
    """(name, first line, last line) of every function body at namespace or class scope."""
    s = strip_cpp(text)
    funcs = []
    stack = []  # (kind, header, start line)
    header_start = 0
    line = 1
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == "\n":
            line += 1
        elif c == "{":
            outer = stack[-1][0] if stack else "namespace"
            header = s[header_start:i]
            if outer in ("namespace", "class"):
                kind = classify(header)
                start = line - header.rstrip().count("\n") - (len(header) - len(header.lstrip())
                                                               and header.lstrip().count("\n") * 0)
                first = line - header.strip("\n \t").count("\n") if header.strip() else line
                stack.append((kind, header, first))
            else:
                stack.append(("other", header, line))
            header_start = i + 1
        elif c == "}":
            if stack:
                kind, header, first = stack.pop()
                outer = stack[-1][0] if stack else "namespace"
                rest = s[i + 1:i + 200].lstrip()
                if kind == "function" and outer in ("namespace", "class") and rest[:1] in (",", "{"):
                    # a brace initialiser in a constructor's member-initialiser list
                    i += 1
                    continue
                if kind == "function":
                    funcs.append((function_name(header), first, line))
            header_start = i + 1
        elif c == ";":
            if not stack or stack[-1][0] in ("namespace", "class"):
                header_start = i + 1
        elif c == ":" and stack and stack[-1][0] == "class":
            # access specifiers end a header: "public:"
            if re.search(r"\b(public|private|protected)\s*$", s[header_start:i]):
                header_start = i + 1
        i += 1
    return funcs


# ---- same-shape blocks ----

KEYWORDS = set("""alignas auto bool break case catch char class const constexpr continue default
delete do double else enum explicit extern false float for friend if inline int long mutable
namespace new noexcept nullptr operator override private protected public return short signed
sizeof static static_cast struct switch template this throw true try typedef typename union
unsigned using virtual void volatile while final""".split())


def shape(line):
    line = re.sub(r'""|\'\'', "S", line)
    line = re.sub(r"\b\d[\w.']*", "N", line)
    return re.sub(r"\b[A-Za-z_]\w*\b", lambda m: m.group(0) if m.group(0) in KEYWORDS else "I",
                  line).replace(" ", "")


# Lines that say nothing alone: access labels, the opening of a class, a defaulted destructor.
THIN = re.compile(r"^((public|private|protected):|(class|struct|union)\s+\w+.*\{|"
                  r"virtual\s+~\w+\(\)\s*=\s*default;)$")


def shaped_lines(text):
    """(line number, shape) of each line that carries code: no blank, comment, include or lone
    punctuation lines."""
    out = []
    for no, raw in enumerate(strip_cpp(text).split("\n"), 1):
        t = raw.strip()
        if not t or re.fullmatch(r"[{}();,\[\]]*", t) or THIN.match(t):
            continue
        out.append((no, shape(t)))
    return out


def duplicate_blocks(files, window):
    seen = {}
    breaks = []
    for path, text in files:
        lines = shaped_lines(text)
        for k in range(len(lines) - window + 1):
            shapes = tuple(x[1] for x in lines[k:k + window])
            if len(set(shapes)) < 3:  # a list of like rows (a table), not copied logic
                continue
            if sum(len(x) for x in shapes) < 12 * window:  # thin lines: braces, keywords
                continue
            if sum("(" in x and not x.endswith(("=N;", "=default;")) for x in shapes) < 3:
                continue  # declarations (fields, pure virtuals), not logic
            seen.setdefault(shapes, []).append((path, lines[k][0], lines[k + window - 1][0]))
    for shapes, places in seen.items():
        # places of one run overlap themselves; keep pairs of distinct, non-overlapping places
        firsts = []
        for p in places:
            if not any(q[0] == p[0] and q[1] <= p[2] and p[1] <= q[2] for q in firsts):
                firsts.append(p)
        if len(firsts) > 1:
            breaks.append(firsts)
    return breaks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    ap.add_argument("--max-file", type=int, default=600)
    ap.add_argument("--max-function", type=int, default=100)
    ap.add_argument("--window", type=int, default=6)
    ap.add_argument("--dup-dir", default="controller/", help="where blocks must not repeat")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    paths = a.paths or tracked_files(a.root)
    problems = []
    dup_files = []
    for rel in paths:
        full = os.path.join(a.root, rel)
        try:
            with open(full, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            problems.append(f"{rel}: cannot read: {e}")
            continue
        n = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if n > a.max_file and rel not in PENDING_FILES:
            problems.append(f"{rel}:1: {n} lines (the most is {a.max_file}): split it")
        if rel.endswith(CPP_EXT):
            for name, first, last in cpp_functions(text):
                length = last - first + 1
                known = FUNCTION_EXCEPTIONS | PENDING_FUNCTIONS
                if length > a.max_function and (rel, name) not in known:
                    problems.append(f"{rel}:{first}: function {name} is {length} lines "
                                    f"(the most is {a.max_function}): split it")
            if rel.startswith(a.dup_dir):
                dup_files.append((rel, text))
    for places in duplicate_blocks(dup_files, a.window):
        first = places[0]
        others = ", ".join(f"{p}:{s}-{e}" for p, s, e in places[1:])
        problems.append(f"{first[0]}:{first[1]}-{first[2]}: {a.window} lines of the same shape "
                        f"as {others}: share one piece of code")
    problems += history_problems(a.root, a.paths or tracked_files(a.root, is_text))
    for p in problems:
        print(p)
    print(f"check_tidy: {len(paths)} files, {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
