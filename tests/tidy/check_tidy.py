#!/usr/bin/env python3
"""The house rules that a reviewer would otherwise count by hand:

  - no source file (C++, SystemVerilog, Python, CMake, shell; tests included) over 600 lines;
  - no function over 100 lines: C++ (free, member, lambda at namespace scope, TEST body), Python
    (functions and methods, nested ones too, counted from `def` by `ast`) and SystemVerilog
    (`function`/`task` bodies and `always`, `always_ff`, `always_comb`, `always_latch` blocks),
    except the declarative tables named in FUNCTION_EXCEPTIONS;
  - no repeated block of six or more same-shape lines in controller/ (names, numbers and strings
    aside), except the blocks named in DUPLICATE_EXCEPTIONS;
  - code, tests and docs say what is, not how it came to be: no issue numbers, no narratives of
    branches, no "since", "until" or "before" a date (a dated measurement with its command is
    fine), no narrative of an earlier state (a sentence opened by "before" and a comma, "before"
    a fix or a change, a parenthesised "was", a re-run at a commit, "fixed or added"), in any
    tracked text file except those in PENDING_HISTORY.

  check_tidy.py [--root DIR] [--max-file 600] [--max-function 100] [--window 6] [PATH ...]

Without PATHs it reads the files git tracks under --root (the repository by default). Exit
status 0 when the tree keeps the rules, 1 with one line per break (file:line: what).
"""
import argparse
import ast
import os
import re
import subprocess
import sys

SOURCE_EXT = (".cpp", ".cc", ".h", ".hpp", ".sv", ".svh", ".v", ".py", ".cmake", ".sh")
SOURCE_NAMES = ("CMakeLists.txt",)
CPP_EXT = (".cpp", ".cc", ".h", ".hpp")
SV_EXT = (".sv", ".svh", ".v")
# Declarative tables: one row per item, no control flow worth splitting.
FUNCTION_EXCEPTIONS = {
    ("controller/config_keys.cpp", "params"),  # the configuration key table
}
# Over the limits and not split yet, each with the engineer who splits it. Add an entry only with
# the reason; the check fails on anything else.
PENDING_FILES: set = set()
PENDING_FUNCTIONS = {
    # hw / enc: the RL RTL is being edited (the next-state blocks of the update and reward FSMs)
    ("controller/rtl/qrl_learn.sv", "always_comb"),
    ("controller/rtl/qrl_reward.sv", "always_comb"),
}
# Same-shape blocks in controller/ that are tables rather than copied logic: (file, first line's
# text, stripped). Empty: add a row only with the reason.
DUPLICATE_EXCEPTIONS = set()
# History in text: issue numbers, narratives of branches, "until DATE ...". The words are built
# from pieces so that this file does not match itself.
HISTORY = re.compile(
    "|".join(
        [
            r"\b[Ii]" + r"ssue #?[0-9]+",
            r"\bb" + r"ranch `?[a-z]+[0-9]+\b",
            r"\bb" + r"ranch `?[a-z]+-[a-z0-9-]+",
            r"\b(this|that|the [a-z0-9]+-[a-z0-9-]+) b" + r"ranch\b",
            r"\b(since|until|before|after) 20[0-9]{2}-[0-9]{2}-[0-9]{2}",
            r"\bB" + r"efore[,:] ",
            r"\b[Bb]" + r"efore (the|this|that|its) ([\w'-]+ ){0,3}(fix|fixes|change|changes|"
            r"restructuring|rewrite|refactoring|split|merge|speed-up)\b",
            r"\((" + r"was|were)\b",
            r"\b[Rr]e-?(run|ran|measured)\b[^.;]{0,40}?\b(?=[0-9]*[a-f])[0-9a-f]{7,40}\b",  # at a commit
            r"\b(Fixed|Added|Removed|Changed) (or|and) (fixed|added|removed|changed)\b",
        ]
    )
)
TEXT_EXT = SOURCE_EXT + (".md", ".json", ".yaml", ".yml", ".txt", ".f", ".awk", ".tcl")
# Not rewritten yet, each with the engineer who rewrites it: remove an entry when the file says
# what is.
PENDING_HISTORY = {
    "docs/rl.md",  # hw: being rewritten
}


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
        args = h[h.index("(") + 1 : h.index(")")]
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
                first = line - header.strip("\n \t").count("\n") if header.strip() else line
                stack.append((kind, header, first))
            else:
                stack.append(("other", header, line))
            header_start = i + 1
        elif c == "}":
            if stack:
                kind, header, first = stack.pop()
                outer = stack[-1][0] if stack else "namespace"
                rest = s[i + 1 : i + 200].lstrip()
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


# ---- Python and SystemVerilog functions ----


def python_functions(text, rel):
    """(name, first line, last line) of every function and method, nested ones too, from its
    first decorator to its last line (ast). A file that does not parse: one entry naming it."""
    try:
        tree = ast.parse(text, filename=rel)
    except SyntaxError as e:
        return [(f"<syntax error: {e.msg}>", e.lineno or 1, None)]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            out.append((node.name, first, node.end_lineno))
    return out


def strip_sv(text):
    """SystemVerilog without comments and strings (line breaks kept)."""

    def blank(m):
        return '""' if m.group(0).startswith('"') else "\n" * m.group(0).count("\n")

    return re.sub(r'//[^\n]*|/\*.*?\*/|"(\\.|[^"\\\n])*"', blank, text, flags=re.S)


SV_TOKEN = re.compile(r"[A-Za-z_$][\w$]*|[;()@*]|\n")
SV_NEST = {"begin": "end", "case": "endcase", "casex": "endcase", "casez": "endcase", "fork": "join"}
SV_CLOSE = ("end", "endcase", "join", "join_any", "join_none")


def sv_tokens(text):
    toks, line = [], 1
    for m in SV_TOKEN.finditer(strip_sv(text)):
        if m.group(0) == "\n":
            line += 1
        else:
            toks.append((m.group(0), line))
    return toks


def sv_skip_parens(toks, i):
    """Index after the parenthesised group that starts at toks[i] (or i when there is none)."""
    if i >= len(toks) or toks[i][0] != "(":
        return i
    depth = 0
    while i < len(toks):
        depth += (toks[i][0] == "(") - (toks[i][0] == ")")
        i += 1
        if depth == 0:
            break
    return i


def sv_statement_end(toks, i):
    """Index of the last token of the statement that starts at toks[i]."""
    n = len(toks)
    while i < n and toks[i][0] in ("unique", "unique0", "priority"):
        i += 1
    if i >= n:
        return n - 1
    word = toks[i][0]
    if word in SV_NEST:
        depth = 0
        while i < n:
            t = toks[i][0]
            if t in SV_NEST:
                depth += 1
            elif t in SV_CLOSE:
                depth -= 1
                if depth == 0:
                    return i
            i += 1
        return n - 1
    if word == "if":
        end = sv_statement_end(toks, sv_skip_parens(toks, i + 1))
        if end + 1 < n and toks[end + 1][0] == "else":
            end = sv_statement_end(toks, end + 2)
        return end
    if word in ("for", "while", "repeat", "forever"):
        return sv_statement_end(toks, sv_skip_parens(toks, i + 1))
    if word == "@":  # an event control inside the block: @(posedge clk_i) stmt
        j = i + 2 if i + 1 < n and toks[i + 1][0] == "*" else sv_skip_parens(toks, i + 1)
        return sv_statement_end(toks, j)
    while i < n and toks[i][0] != ";":
        i += 1
    return min(i, n - 1)


def sv_functions(text):
    """(name, first line, last line) of every function and task body and every always block."""
    toks = sv_tokens(text)
    out = []
    i, n = 0, len(toks)
    while i < n:
        word = toks[i][0]
        prev = toks[i - 1][0] if i else ""
        if word in ("function", "task") and prev not in ("import", "export", "extern", "virtual"):
            end_word = "end" + word
            j = i + 1
            name = None
            while j < n and toks[j][0] != end_word:
                if name is None and toks[j][0] in ("(", ";"):
                    name = toks[j - 1][0]
                j += 1
            if j < n:
                out.append((name or word, toks[i][1], toks[j][1]))
            i = j + 1
            continue
        if word in ("always", "always_ff", "always_comb", "always_latch"):
            j = i + 1
            if j < n and toks[j][0] == "@":
                j = j + 2 if j + 1 < n and toks[j + 1][0] == "*" else sv_skip_parens(toks, j + 1)
            end = sv_statement_end(toks, j)
            out.append((word, toks[i][1], toks[end][1]))
            i = end + 1
            continue
        i += 1
    return out


def function_problems(rel, text, max_lines):
    """One line per function over max_lines in a C++, Python or SystemVerilog file."""
    if rel.endswith(CPP_EXT):
        funcs = cpp_functions(text)
    elif rel.endswith(".py"):
        funcs = python_functions(text, rel)
    elif rel.endswith(SV_EXT):
        funcs = sv_functions(text)
    else:
        return []
    out = []
    known = FUNCTION_EXCEPTIONS | PENDING_FUNCTIONS
    for name, first, last in funcs:
        if last is None:
            out.append(f"{rel}:{first}: {name}: cannot count its functions")
            continue
        length = last - first + 1
        if length > max_lines and (rel, name) not in known:
            kind = "block" if name.startswith("always") else "function"
            out.append(
                f"{rel}:{first}: {kind} {name} is {length} lines " f"(the most is {max_lines}): split it"
            )
    return out


# ---- same-shape blocks ----

KEYWORDS = set(
    """alignas auto bool break case catch char class const constexpr continue default
delete do double else enum explicit extern false float for friend if inline int long mutable
namespace new noexcept nullptr operator override private protected public return short signed
sizeof static static_cast struct switch template this throw true try typedef typename union
unsigned using virtual void volatile while final""".split()
)


def shape(line):
    line = re.sub(r'""|\'\'', "S", line)
    line = re.sub(r"\b\d[\w.']*", "N", line)
    return re.sub(r"\b[A-Za-z_]\w*\b", lambda m: m.group(0) if m.group(0) in KEYWORDS else "I", line).replace(
        " ", ""
    )


# Lines that say nothing alone: access labels, the opening of a class, a defaulted destructor.
THIN = re.compile(
    r"^((public|private|protected):|(class|struct|union)\s+\w+.*\{|" r"virtual\s+~\w+\(\)\s*=\s*default;)$"
)


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
            shapes = tuple(x[1] for x in lines[k : k + window])
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
    ap.add_argument(
        "--root", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    )
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
        problems += function_problems(rel, text, a.max_function)
        if rel.endswith(CPP_EXT) and rel.startswith(a.dup_dir):
            dup_files.append((rel, text))
    for places in duplicate_blocks(dup_files, a.window):
        first = places[0]
        others = ", ".join(f"{p}:{s}-{e}" for p, s, e in places[1:])
        problems.append(
            f"{first[0]}:{first[1]}-{first[2]}: {a.window} lines of the same shape "
            f"as {others}: share one piece of code"
        )
    problems += history_problems(a.root, a.paths or tracked_files(a.root, is_text))
    for p in problems:
        print(p)
    print(f"check_tidy: {len(paths)} files, {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
