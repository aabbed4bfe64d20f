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
  * names: every lib/<folder>/ has exactly one header, <folder>_internal.h, and no two
    files under lib/ share a name.

Usage: layers.py SRCDIR BUILDDIR.  Prints what it found; exits 1 on any breach."""
import collections
import glob
import os
import re
import subprocess
import sys

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
    for circle in cycles(symbol_graph(objects)):
        problems.append("%s: these files call one another in a circle: %s" % (what, ", ".join(circle)))

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
    if [os.path.basename(h) for h in headers] != [want]:
        problems.append("lib/%s: one internal header, %s, expected; found %s" %
                        (folder, want, ", ".join(os.path.basename(h) for h in headers) or "none"))
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
header_graph = {n: {t for t in ts if t.endswith(".h")} for n, ts in includes.items() if n.endswith(".h")}
for circle in cycles(header_graph):
    problems.append("headers include one another in a circle: %s" % ", ".join(circle))

for p in problems:
    print("layers: " + p)
print("layers: %d object files and %d sources checked, %d problem(s)" %
      (checked, sum(len(v) for v in names.values()), len(problems)))
sys.exit(1 if problems else 0)
