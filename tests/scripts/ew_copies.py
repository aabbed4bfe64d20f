#!/usr/bin/python3
"""make check's check of cl/elementwise.cl's rule for fused expressions (doc/engine.md,
"Generated programs"): a fused expression's program holds the file's helpers once per dtype
it computes in, so

- every macro the helpers define under a condition (the loop dtype's kind or width, which
  differ between the copies) is undefined in the block of #undef at the helpers' start, and
- every function the helpers define carries EW_T in its name: `#define f EW_PASTE(f_, EW_T)`
  right before `static inline ... f(`.

usage: ew_copies.py SRCDIR; prints the problems, exits 1 when there are any.
"""
import re
import sys

# Macros defined under conditions that do not change between the copies of one program
# (the program's own -D options: arity, result rule, vector form).
CONSTANT = re.compile(r"^EW_(AR|OU)_|^EW_VEC$")


def main(srcdir):
    lines = open(srcdir + "/cl/elementwise.cl").read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("/* ---- a fused expression's program"))
    end = next(i for i, l in enumerate(lines) if l.startswith("#ifndef EW_HELPERS_ONLY"))
    undefined, problems, depth = set(), [], 0
    first_define = next(i for i in range(start, end) if lines[i].startswith("#define"))
    for l in lines[start:first_define]:
        m = re.match(r"#undef (\w+)", l)
        if m:
            undefined.add(m.group(1))
    for i in range(first_define, end):
        l = lines[i]
        if re.match(r"#\s*if", l):
            depth += 1
        elif re.match(r"#\s*endif", l):
            depth -= 1
        m = re.match(r"#define (\w+)", l)
        if m and depth > 0 and not CONSTANT.search(m.group(1)) and m.group(1) not in undefined:
            problems.append("cl/elementwise.cl:%d: %s is defined under a condition but not undefined at the "
                            "helpers' start" % (i + 1, m.group(1)))
        m = re.match(r"static inline [\w ]+?\b(\w+)\(", l)
        if m:
            name = m.group(1)
            if not re.match(r"#define %s EW_PASTE\(%s_, EW_T\)$" % (name, name), lines[i - 1]):
                problems.append("cl/elementwise.cl:%d: the function %s is defined in every copy: name it with "
                                "`#define %s EW_PASTE(%s_, EW_T)` before it" % (i + 1, name, name, name))
            if name not in undefined:
                problems.append("cl/elementwise.cl:%d: %s is not undefined at the helpers' start" % (i + 1, name))
    for p in problems:
        print(p)
    print("ew_copies: %d lines of helpers checked, %d problem(s)" % (end - first_define, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
