"""The layering check of make check (doc/architecture.md).

lib/ is one folder per layer with one internal header each, and nothing depends on
itself in a circle.  This script checks, on the built objects and the sources:

  * calls: file A uses a symbol that file B defines makes A depend on B (read from `nm`
    of each object of libusmarr, libusmarr-mpi and the Python module); no file may
    reach itself through such dependencies;
  * headers: every .c of lib/<folder>/ includes its folder's header, and the headers
    include one another without a circle;
  * headers of the API: every public header include/usmarr/<name>.h is implemented in
    one folder of lib/ (its functions are defined there), so a reader finds a function's
    file from its header's name (doc/architecture.md has the table);
  * ranks: the folders of lib/ are ranked bottom up (RANKS below); no file calls a
    function or includes a header of a folder ranked above its own;
  * names: every lib/<folder>/ has one header that other folders may include,
    <folder>_internal.h; any other header of the folder is private to it (included only
    by the folder's .c files); no two files under lib/ share a name.

Usage: layers.py SRCDIR BUILDDIR.  Prints what it found; exits 1 on any breach."""
import collections
import glob
import os
import re
import subprocess
import sys

# The folders of lib/, bottom up (doc/architecture.md, "The layers of lib/").  A file may
# call and include only its own folder and the folders before it.
RANKS = ["base", "backend", "core", "engine", "interop", "index", "ops", "linalg", "fft", "cache", "storage", "mpi"]

srcdir, builddir = sys.argv[1], sys.argv[2]
problems = []


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def folder_of(path):
    """The folder of lib/ that `path` (relative to the tree, lib/<folder>/...) is in, or None."""
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "lib" else None


def upward(edges, what):
    """Breaches of the rank order among `edges` ({file: {file it depends on}}); `what` says
    how it depends ("calls", "includes")."""
    found = []
    for source in sorted(edges):
        for target in sorted(edges[source]):
            a, b = folder_of(source), folder_of(target)
            if a is None or b is None or a == b:
                continue
            if a not in RANKS or b not in RANKS:
                found.append("%s %s %s: lib/%s has no rank (RANKS in %s)" % (
                    source, what, target, a if a not in RANKS else b, os.path.basename(__file__)))
            elif RANKS.index(b) > RANKS.index(a):
                found.append("%s %s %s: lib/%s is ranked above lib/%s" % (source, what, target, b, a))
    return found


# The rank check checks itself first: a known upward call must be caught, a downward one
# must not.
if (len(upward({"lib/core/array.c": {"lib/ops/reduce.c"}}, "calls")) != 1 or
        upward({"lib/ops/reduce.c": {"lib/core/array.c"}}, "calls")):
    print("layers: the rank check does not catch a call from lib/core to lib/ops")
    sys.exit(1)


def defined_symbols(objects):
    """{symbol: source} of the functions and data the objects define."""
    defined = {}
    for source, obj in objects.items():
        out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[1] in "TDBRCV":
                defined[fields[2]] = source
    return defined


def symbol_graph(objects):
    """{source: {source it calls}} from the objects' defined and undefined symbols."""
    defined, used = {}, {}
    for source, obj in objects.items():
        out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
        used[source] = set()
        for line in out.splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[1] in "TDBRCV":
                defined[fields[2]] = source
            elif len(fields) == 2 and fields[0] == "U":
                used[source].add(fields[1])
    graph = collections.defaultdict(set)
    for source, symbols in used.items():
        graph[source]
        for s in symbols:
            if s in defined and defined[s] != source:
                graph[source].add(defined[s])
    return graph


def objects_of(pattern, prefix):
    """{source path: object} for the libtool objects matching `pattern` (under builddir)."""
    found = {}
    for obj in glob.glob(os.path.join(builddir, pattern), recursive=True):
        folder = os.path.dirname(os.path.dirname(obj))
        name = os.path.basename(obj)[len(prefix):-2] + ".c"
        source = os.path.relpath(os.path.join(folder, name), builddir)
        if not source.endswith("cl_sources.c"):
            found[source] = obj
    return found


checked = 0
ranked_calls = collections.defaultdict(set)
library_objects = objects_of("lib/**/.libs/libusmarr_la-*.o", "libusmarr_la-")
for what, pattern, prefix in (("libusmarr", "lib/**/.libs/libusmarr_la-*.o", "libusmarr_la-"),
                              ("libusmarr-mpi", "lib/mpi/.libs/libusmarr_mpi_la-*.o", "libusmarr_mpi_la-"),
                              ("the Python module", "python/src/.libs/_usmarr_la-*.o", "_usmarr_la-")):
    objects = objects_of(pattern, prefix)
    if not objects:
        if what == "libusmarr":
            problems.append("no objects of libusmarr under %s: build first" % builddir)
        continue
    checked += len(objects)
    graph = symbol_graph(objects)
    if what != "the Python module":
        for source, targets in graph.items():
            ranked_calls[source] |= targets
    for circle in cycles(graph):
        problems.append("%s: these files call one another in a circle: %s" % (what, ", ".join(circle)))

# libusmarr-mpi calls libusmarr too: rank the calls of both libraries together.
mpi_objects = objects_of("lib/mpi/.libs/libusmarr_mpi_la-*.o", "libusmarr_mpi_la-")
if mpi_objects:
    for source, targets in symbol_graph({**library_objects, **mpi_objects}).items():
        ranked_calls[source] |= targets
problems += upward(ranked_calls, "calls")

# Public headers: one folder each.
defined = defined_symbols(library_objects)
for header in sorted(glob.glob(os.path.join(srcdir, "include", "usmarr", "*.h"))):
    text = open(header, encoding="utf-8").read()
    folders = collections.defaultdict(list)
    for name in re.findall(r"^USMARR_API\b[^;]*?\b(usmarr_[a-z0-9_]+)\s*\(", text, re.M | re.S):
        if name in defined:
            folders[defined[name].split("/")[1]].append(name)
    if len(folders) > 1:
        problems.append("include/usmarr/%s is implemented in several folders: %s" % (
            os.path.basename(header),
            "; ".join("lib/%s (%s)" % (f, ", ".join(sorted(n)[:4])) for f, n in sorted(folders.items()))))

# Headers and names.
lib = os.path.join(srcdir, "lib")
includes = collections.defaultdict(set)
names = collections.defaultdict(list)
for folder in sorted(os.listdir(lib)):
    path = os.path.join(lib, folder)
    if folder.startswith(".") or not os.path.isdir(path):
        continue
    headers = sorted(glob.glob(os.path.join(path, "*.h")))
    want = "%s_internal.h" % folder
    if want not in [os.path.basename(h) for h in headers]:
        problems.append("lib/%s: its internal header, %s, is missing" % (folder, want))
    for f in sorted(glob.glob(os.path.join(path, "*.[ch]"))):
        if f.endswith("cl_sources.c"):  # generated by the build
            continue
        names[os.path.basename(f)].append(os.path.relpath(f, srcdir))
        text = open(f, encoding="utf-8").read()
        local = re.findall(r'^#include "([^"]+\.h)"', text, re.M)
        node = os.path.relpath(f, srcdir)
        for inc in local:
            target = os.path.normpath(os.path.join(os.path.dirname(node), inc))
            includes[node].add(target)
        if f.endswith(".c") and want not in [os.path.basename(i) for i in local]:
            problems.append("%s: it does not include its folder's header %s" % (node, want))
for name, places in sorted(names.items()):
    if len(places) > 1:
        problems.append("%s: one name for several files: %s" % (name, ", ".join(places)))
problems += upward(includes, "includes")
for node in sorted(includes):
    for target in sorted(includes[node]):
        folder = folder_of(target)
        if (folder is None or os.path.basename(target) == "%s_internal.h" % folder or
                not os.path.exists(os.path.join(srcdir, target))):
            continue
        if folder_of(node) != folder or os.path.basename(node) == "%s_internal.h" % folder:
            problems.append("%s includes %s, a header private to lib/%s's files" % (node, target, folder))
header_graph = {n: {t for t in ts if t.endswith(".h")} for n, ts in includes.items() if n.endswith(".h")}
for circle in cycles(header_graph):
    problems.append("headers include one another in a circle: %s" % ", ".join(circle))

for p in problems:
    print("layers: " + p)
print("layers: %d object files and %d sources checked, %d problem(s)" %
      (checked, sum(len(v) for v in names.values()), len(problems)))
sys.exit(1 if problems else 0)
