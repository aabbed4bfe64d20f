#!/usr/bin/python3
"""make check's check of the rule for fused expressions (doc/engine.md, "Generated
programs"): a fused expression's program holds cl/elementwise.cl's definitions and the
helpers of cl/elementwise_funcs.cl once per dtype it computes in, so

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
    table = open(srcdir + "/cl/elementwise.cl").read().split("\n")
    funcs = open(srcdir + "/cl/elementwise_funcs.cl").read().split("\n")
    start = next(i for i, l in enumerate(table) if l.startswith("/* ---- a fused expression's program"))
    last = max(i for i, l in enumerate(table) if l.startswith("#endif /* USMARR_ELEMENTWISE_TABLE_ONLY"))
    # (where, text): elementwise.cl from the block of #undef to its last #endif, then the helpers
    lines = [("cl/elementwise.cl:%d" % (i + 1), table[i]) for i in range(start, last)]
    lines += [("cl/elementwise_funcs.cl:%d" % (i + 1), l) for i, l in enumerate(funcs)]
    undefined, problems, depth = set(), [], 0
    first_define = next(i for i, (_, l) in enumerate(lines) if l.startswith("#define"))
    for _, l in lines[:first_define]:
        m = re.match(r"#undef (\w+)", l)
        if m:
            undefined.add(m.group(1))
    for i in range(first_define, len(lines)):
        where, l = lines[i]
        if re.match(r"#\s*if", l):
            depth += 1
        elif re.match(r"#\s*endif", l):
            depth -= 1
        m = re.match(r"#define (\w+)", l)
        if m and depth > 0 and not CONSTANT.search(m.group(1)) and m.group(1) not in undefined:
            problems.append("%s: %s is defined under a condition but not undefined at the "
                            "helpers' start" % (where, m.group(1)))
        m = re.match(r"static inline [\w ]+?\b(\w+)\(", l)
        if m:
            name = m.group(1)
            if not re.match(r"#define %s EW_PASTE\(%s_, EW_T\)$" % (name, name), lines[i - 1][1]):
                problems.append("%s: the function %s is defined in every copy: name it with "
                                "`#define %s EW_PASTE(%s_, EW_T)` before it" % (where, name, name, name))
            if name not in undefined:
                problems.append("%s: %s is not undefined at the helpers' start" % (where, name))
    for p in problems:
        print(p)
    print("ew_copies: %d lines of helpers checked, %d problem(s)" % (len(lines) - first_define, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
