#!/usr/bin/env python3
"""Check doc/FAULTS.md's table against the tree (run by tests/t-man.sh).

Usage: faults-table.py TOP

Every row of the table (one table: a row after a gap is not rendered as
one) names in its Test column at least one test that exists in
TOP/tests (t-NAME.sh or t-NAME.c), or says "not tested here: WHY".
Every quoted text (`...`) of its "What you see" column that is a message
is bonnie-ng's own: cut at its placeholders (words in capitals: FILE,
NAME, N, SIGNAME), at numbers and at the system's words (strerror's),
each piece of 12 characters or more occurs in a string of TOP/src/*.c,
the adjacent literals of one expression joined ("a " "b" is "a b").
A quote that holds no such piece (an option, a key, a value) checks
nothing.  Prints one line per problem; exits 1 when there is one.
"""
import os
import re
import sys

MIN = 12
WILD = 40


def rows(path):
    """The table's rows as lists of cells, with their line numbers."""
    out, started, gap, bad = [], False, False, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("| Fault |"):
                started = True
                continue
            if not started:
                continue
            if line.startswith("| ---"):
                continue
            if line.startswith("|"):
                if gap:
                    bad.append("%s:%d: a row after a gap: not part of the "
                               "table" % (path, n))
                cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
                out.append((n, [c.strip() for c in cells]))
            elif line.strip() == "":
                gap = True
            else:
                break
    return out, bad


def literals(top):
    """Every string of the C sources, adjacent literals joined."""
    text = []
    lit = re.compile(r"'(?:[^'\\\n]|\\.)+'" r'|"((?:[^"\\\n]|\\.)*)"')
    for name in sorted(os.listdir(os.path.join(top, "src"))):
        if not name.endswith(".c"):
            continue
        with open(os.path.join(top, "src", name), encoding="utf-8") as f:
            src = f.read()
        src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
        pos, cur = 0, None
        for m in lit.finditer(src):
            if m.group(1) is None:
                continue
            between = src[pos:m.start()]
            s = m.group(1).replace('\\"', '"').replace("\\\\", "\\")
            if cur is not None and between.strip() == "":
                cur += s
            else:
                if cur is not None:
                    text.append(cur)
                cur = s
            pos = m.end()
        if cur is not None:
            text.append(cur)
    return text


def system_words():
    words = set()
    for e in range(1, 134):
        w = os.strerror(e)
        if not w.startswith("Unknown error"):
            words.add(w)
    words.update(["Killed", "Segmentation fault", "Terminated"])
    return sorted(words, key=len, reverse=True)


def message(quote):
    """A message, not an option, a key, a value or a command line: words
    with spaces between them, not starting with a dash or a brace."""
    return " " in quote.strip() and not quote.startswith(("-", "{"))


def pieces(quote, sysw):
    q = quote.replace("\\|", "|")
    for w in sysw:
        q = q.replace(w, "\0")
    q = re.sub(r"%[a-z]+", "\0", q)
    q = re.sub(r"\.\.\.", "\0", q)
    q = re.sub(r"\b[A-Z][A-Z0-9_]*\b", "\0", q)
    q = re.sub(r"(?<=[a-z])[A-Z]\b", "\0", q)
    q = re.sub(r"[0-9]+", "\0", q)
    return [p.strip() for p in q.split("\0") if len(p.strip()) >= MIN]


CONV = re.compile(r"%[-+ #0-9.*]*[hlLqjzt]*[diouxXeEfFgGcsp]")


TOKENS = {}


def tokens(lit):
    """A literal as characters, None where a conversion (%s) stands."""
    if lit in TOKENS:
        return TOKENS[lit]
    out, pos = [], 0
    for m in CONV.finditer(lit):
        out.extend(lit[pos:m.start()].replace("%%", "%"))
        out.append(None)
        pos = m.end()
    out.extend(lit[pos:].replace("%%", "%"))
    TOKENS[lit] = out
    return out


VALUES = {}


def value(text, src):
    """May a conversion have printed text: src holds it, or an option's
    name?"""
    if text not in VALUES:
        VALUES[text] = text in src or \
            re.fullmatch(r"--?[a-z][a-z-]*", text) is not None
    return VALUES[text]


def within(piece, toks, src):
    """Is piece a substring of some expansion of toks, where a conversion
    (%s, %d) stands for at most WILD characters of text that src also
    holds (a value the code fills in: a phase's name, a setting's) or an
    option's name, with at least half of piece the literal's own?"""
    n = len(piece)
    need = (n + 1) // 2
    # reach: position in piece -> the most characters matched literally.
    reach = {0: 0}
    for t in toks:
        nxt = {0: 0}
        for i, k in reach.items():
            if i == n:
                continue
            if t is None:
                for j in range(i, min(n, i + WILD) + 1):
                    if j - i <= 2 or value(piece[i:j], src):
                        nxt[j] = max(nxt.get(j, -1), k)
            elif piece[i] == t:
                nxt[i + 1] = max(nxt.get(i + 1, -1), k + 1)
        reach = nxt
        if reach.get(n, -1) >= need:
            return True
    return False


def found_one(part, src, lits):
    if part in src:
        return True
    stems = [w[:4] for w in re.findall(r"[A-Za-z]{4,}", part)]
    return any(within(part, tokens(l), src) for l in lits
               if "%" in l and any(w in l for w in stems))


def found(piece, src, lits):
    """In a string of src, a conversion (%s, %d) standing for any text;
    else each part between punctuation (where a message joins the words
    of two places: "%s: %s", "%s; its ...")."""
    if found_one(piece, src, lits):
        return True
    parts = [p.strip() for p in re.split(r"[;:,()\[\]]", piece)]
    parts = [p for p in parts if len(p) >= MIN]
    return parts != [] and all(found_one(p, src, lits) for p in parts)


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    path = os.path.join(top, "doc", "FAULTS.md")
    table, problems = rows(path)
    if len(table) < 10:
        problems.append("%s: no table found" % path)
    lits = literals(top)
    src = "\n".join(lits)
    sysw = system_words()
    for n, cells in table:
        where = "%s:%d" % (path, n)
        if len(cells) != 4:
            problems.append("%s: %d cells, not 4" % (where, len(cells)))
            continue
        tests = re.findall(r"\bt-[a-z0-9-]+\.(?:sh|c)\b", cells[2])
        if not tests and "not tested here:" not in cells[2]:
            problems.append("%s: names no test (t-NAME.sh, t-NAME.c) and "
                            "does not say 'not tested here: WHY'" % where)
        for t in tests:
            if not os.path.exists(os.path.join(top, "tests", t)):
                problems.append("%s: %s is not in tests/" % (where, t))
        for quote in re.findall(r"`([^`]+)`", cells[3]):
            if not message(quote):
                continue
            for p in pieces(quote, sysw):
                if not found(p, src, lits):
                    problems.append("%s: '%s' (of `%s`) is in no string of "
                                    "src/" % (where, p, quote))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
