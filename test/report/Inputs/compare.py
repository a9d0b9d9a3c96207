#!/usr/bin/env python3
"""Checks pcmap-report's output against other sources of truth.

  compare.py nm REPORT.json NM.txt [--objects OBJ_NM.txt...]
      every function's size and address equal its symbol in `llvm-nm -S`;
      with --objects, the functions are exactly the defined functions of
      those objects (`llvm-nm -S --defined-only`), less the registration
      constructors and destructors
  compare.py runtime REPORT.json RUNTIME.txt
      address, size and atomics count of every function equal what the
      runtime reports (lines "function ADDR SIZE ATOMICS")
  compare.py objects LINKED.json OBJECT.json...
      the functions (name, size, atomics by kind, features) and atomic sites
      (function, offset, descriptor) of the objects equal the linked file's
  compare.py csv REPORT.csv REPORT.json
      the CSV parses with Python's csv module and holds the JSON's rows
      (trace: one per site and function, or with pid and run filled, and
      one per caller of each, with its frames;
      with --per-process, one per site or function and process)
  compare.py symbolizer REPORT.json SYMBOLIZER.txt
      every atomic site's inlined frames (function, file and line, innermost
      first) are the ones `llvm-symbolizer --inlines` printed for its
      address (SYMBOLIZER.txt: its output for the addresses `compare.py
      addresses` printed), and its source is the innermost frame's
  compare.py addresses REPORT.json
      prints the atomic sites' addresses, one a line
  compare.py chains REPORT.json
      prints each atomic site's function and offset, then its frames, one a
      line ("  FUNCTION at FILE:LINE", the file's base name), innermost first
  compare.py schema REPORT.json SCHEMA.json
      the document validates against the JSON Schema
  compare.py diff DIFF.json OLD.json NEW.json
      every row of a diff (made with --all) holds the sizes and atomics of
      the functions reports of OLD and NEW, rows are sorted by |delta|, and
      the summary adds up
  compare.py zeros DIFF.json
      every row of a diff is unchanged with zero deltas
  compare.py html DOM.html REPORT.json [--sorted-by-name]
      the page (as a browser's --dump-dom wrote it) has a table row for
      every row of the JSON report, with the same name (in the same order,
      or by name after the page sorted itself); for a trace, its site and
      function tables hold the ranks of the JSON's rows
  compare.py trace TRACE.json
      a merged trace adds up: rows are ranked by samples, each row's samples
      are the sum of its processes' (and exact + skid, for sites), shares
      are samples over the total, the totals are the processes' sums, and
      every process of a row is one of the document's processes
  compare.py data TRACE.json
      a merged trace's data adds up: lines are ranked by samples, a line's
      samples are its accesses' and its members', a member's its kinds' and
      its sites', threads and processes are counted, the verdict is the one
      the rules give (written again here), shares are of all samples
  compare.py png FILE
      FILE is a PNG image of a plausible size in which at least four
      colours besides the background fill areas (the page rendered)

  compare.py tree PAGE.html REPORT.json
      prints the page's embedded source tree as an outline (one node a
      line, children by name: kind, name, size, atomics, functions) after
      checking that every node's size, atomics and function count are its
      children's sums and that its functions are the report's (name, size,
      atomics)
  compare.py tree PAGE.html DIFF.json --diff
      the same for a diff page (made with --all): the old sizes and atomics
      add up too, and the functions are the diff's rows
  compare.py dom DOM.html
      prints the breadcrumbs and the treemap's tile titles of a page as a
      browser's --dump-dom wrote it, after the script drew the treemap
  compare.py flame DOM.html
      prints the boxes of the trace page's flame graph (title and width)
      as a browser's --dump-dom wrote them, after the script drew it
  compare.py pprof PROFILE.pb.gz
      decodes a gzipped pprof profile by hand: its mappings (file, build ID,
      has_functions/filenames/line_numbers/inline_frames as 4 digits), sample
      and period types, and each sample as its functions outermost first
      (inline frames expanded, ":line" where known), values and labels

Each check prints one "OK: ..." line with what it counted, or "FAIL: ..."
lines and exits 1.
"""

import collections
import csv
import html.parser
import json
import os
import re
import struct
import sys
import zlib

FUNCTION_TYPES = set("tTwWiI")
CTOR_RE = re.compile(r"\.module_(ctor|dtor)$")


def fail(messages):
    for m in messages:
        print("FAIL: " + m)
    sys.exit(1)


def load(path):
    with open(path) as f:
        return json.load(f)


def read_nm(path):
    """{name: [(address, size, type)]} of `llvm-nm -S` lines with a size."""
    out = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 4 or parts[2] not in FUNCTION_TYPES:
                continue
            addr, size, typ, name = parts
            out.setdefault(name, []).append((int(addr, 16), int(size, 16),
                                             typ))
    return out


def functions_of(doc):
    return [f for file in doc["files"] for f in file["functions"]]


def cmd_nm(args):
    doc = load(args[0])
    nm = read_nm(args[1])
    errors = []
    funcs = functions_of(doc)
    for f in funcs:
        name = f["mangled_name"]
        want = (int(f["address"], 16), f["size"])
        have = [(a, s) for a, s, _ in nm.get(name, [])]
        if want not in have:
            errors.append("%s at %s size %d: llvm-nm has %s"
                          % (name, f["address"], f["size"],
                             ["%#x size %d" % h for h in have] or "nothing"))
    if "--objects" in args:
        names = set()
        for path in args[args.index("--objects") + 1:]:
            for name, entries in read_nm(path).items():
                if not CTOR_RE.search(name) and any(s for _, s, _ in entries):
                    names.add(name)
        got = set(f["mangled_name"] for f in funcs)
        for n in sorted(names - got):
            errors.append("llvm-nm lists %s, pcmap-report does not" % n)
        for n in sorted(got - names):
            errors.append("pcmap-report lists %s, llvm-nm does not" % n)
    if not funcs:
        errors.append("no functions in the report")
    if errors:
        fail(errors)
    print("OK: %d functions match llvm-nm -S" % len(funcs))


def cmd_runtime(args):
    doc = load(args[0])
    runtime = {}
    with open(args[1]) as f:
        for line in f:
            parts = line.split()
            if parts and parts[0] == "function":
                runtime[int(parts[1], 16)] = (int(parts[2]), int(parts[3]))
    report = {int(f["address"], 16): (f["size"], f["atomics"])
              for f in functions_of(doc)}
    errors = []
    for addr in sorted(set(runtime) | set(report)):
        if runtime.get(addr) != report.get(addr):
            errors.append("%#x: runtime (size, atomics) %s, pcmap-report %s"
                          % (addr, runtime.get(addr), report.get(addr)))
    if not report:
        errors.append("no functions")
    if errors:
        fail(errors)
    print("OK: %d functions, %d atomics agree with the runtime"
          % (len(report), sum(a for _, a in report.values())))


def function_key(f):
    return (f["mangled_name"], f["size"], f["atomics"],
            tuple(sorted(f["atomics_by_kind"].items())),
            tuple(f["features"]))


def atomic_key(a):
    return (a["mangled_function"], a["offset"], a["kind"], a["size"],
            a["order"], a["failure_order"], a["rmw_op"], tuple(a["flags"]))


def cmd_objects(args):
    linked = load(args[0])
    objects = [load(p) for p in args[1:]]
    errors = []
    if linked["command"] == "functions":
        key, items = function_key, functions_of
    else:
        key = atomic_key

        def items(doc):
            return [a for file in doc["files"] for a in file["atomics"]]
    want = sorted(key(x) for x in items(linked))
    have = sorted(key(x) for doc in objects for x in items(doc))
    for x in sorted(set(want) - set(have)):
        errors.append("linked file only: %s" % (x,))
    for x in sorted(set(have) - set(want)):
        errors.append("objects only: %s" % (x,))
    if not want:
        errors.append("nothing to compare")
    if errors:
        fail(errors)
    print("OK: %d %s agree between the objects and the linked file"
          % (len(want), linked["command"]))


def trace_csv_rows(rows, doc):
    """The rows of a trace's CSV, and of its JSON, as (table, rank, offset,
    function, pid, run, samples) tuples; caller rows as (table, rank,
    caller rank, samples, number of frames)."""
    per_process = any(r["pid"] for r in rows)
    want = []
    callers = []
    for table, items in (("site", doc["sites"]),
                         ("function", doc["functions"])):
        for x in items:
            common = (table, str(x["rank"]), x["module_offset"],
                      x["function"] or "")
            if per_process:
                want += [common + (str(p["pid"]), p["run"], str(p["samples"]))
                         for p in x["processes"]]
            else:
                want.append(common + ("", "", str(x["samples"])))
            for i, c in enumerate(x.get("callers", [])):
                lines = sum(max(1, len(doc["frames"][f]["lines"]))
                            for f in c["frames"])
                callers.append((table + "-caller", str(x["rank"]), str(i + 1),
                                str(c["samples"]), lines))
    have = [(r["table"], r["rank"], r["module_offset"], r["function"],
             r["pid"], r["run"], r["samples"]) for r in rows
            if not r["table"].endswith("-caller")]
    have_callers = [(r["table"], r["rank"], r["caller_rank"], r["samples"],
                     len(r["frames"].split(";")))
                    for r in rows if r["table"].endswith("-caller")]
    return want + callers, have + have_callers


def cmd_csv(args):
    with open(args[0], newline="") as f:
        raw = f.read()
    if "\n" in raw.replace("\r\n", ""):
        fail(["a line ends without CR LF"])
    rows = list(csv.DictReader(raw.splitlines(keepends=True), strict=True))
    doc = load(args[1])
    errors = []
    if doc["command"] == "functions":
        want = [(f["name"], f["address"], str(f["size"]), str(f["atomics"]))
                for f in functions_of(doc)]
        have = [(r["name"], r["address"], r["size"], r["atomics"])
                for r in rows]
    elif doc["command"] == "atomics":
        want = [(a["address"], a["kind"], a["function"] or "",
                 symbolizer_text(a["inlined"]))
                for file in doc["files"] for a in file["atomics"]]
        have = [(r["address"], r["kind"], r["function"],
                 r["inlined"].replace("\r\n", "\n")) for r in rows]
    elif doc["command"] == "trace":
        want, have = trace_csv_rows(rows, doc)
    else:
        want = [(d["name"], d["status"], str(d["delta"]))
                for d in doc["functions"]]
        have = [(r["name"], r["status"], r["delta"]) for r in rows]
    if want != have:
        errors.append("CSV rows %s differ from JSON rows %s" % (have, want))
    if not rows:
        errors.append("no rows")
    if errors:
        fail(errors)
    print("OK: %d CSV rows of %d columns match the JSON"
          % (len(rows), len(rows[0])))


def frame_where(frame, base_name=False):
    source = frame["source"]
    if source is None:
        return "??:0"
    path = source["file"].rsplit("/", 1)[-1] if base_name else source["file"]
    return "%s:%d" % (path, source["line"])


def symbolizer_text(frames):
    """A site's frames as the CSV's inlined column holds them: the lines
    llvm-symbolizer --inlines prints, function then file:line."""
    return "\n".join("%s\n%s" % (f["function"] or "??", frame_where(f))
                     for f in frames)


def atomics_of(doc):
    return [a for file in doc["files"] for a in file["atomics"]]


def read_symbolizer(path):
    """[(function, file:line)] per address of llvm-symbolizer --inlines'
    output, the column dropped."""
    with open(path) as f:
        blocks = f.read().strip("\n").split("\n\n")
    out = []
    for block in blocks:
        lines = block.split("\n")
        frames = []
        for name, where in zip(lines[0::2], lines[1::2]):
            parts = where.rsplit(":", 2)
            frames.append((name, "%s:%s" % (parts[0], parts[1])
                           if len(parts) == 3 else where))
        out.append(frames)
    return out


def cmd_symbolizer(args):
    sites = atomics_of(load(args[0]))
    want = read_symbolizer(args[1])
    errors = []
    if len(want) != len(sites):
        errors.append("%d sites, llvm-symbolizer gave %d addresses"
                      % (len(sites), len(want)))
    for a, frames in zip(sites, want):
        have = [(f["function"] or "??", frame_where(f)) for f in a["inlined"]]
        if have != frames:
            errors.append("%s: frames %s, llvm-symbolizer %s"
                          % (a["address"], have, frames))
        elif a["inlined"] and a["source"] != a["inlined"][0]["source"]:
            errors.append("%s: source %s is not the innermost frame's"
                          % (a["address"], a["source"]))
    if not any(len(a["inlined"]) > 1 for a in sites):
        errors.append("no site was inlined")
    if errors:
        fail(errors)
    print("OK: %d sites' frames match llvm-symbolizer --inlines, %d inlined"
          % (len(sites), sum(len(a["inlined"]) > 1 for a in sites)))


def cmd_addresses(args):
    for a in atomics_of(load(args[0])):
        print(a["address"])


def cmd_chains(args):
    for a in atomics_of(load(args[0])):
        print("site %s+%s" % (a["function"], a["offset"]))
        for f in a["inlined"]:
            print("  %s at %s" % (f["function"], frame_where(f, True)))


class SchemaError(Exception):
    pass


def validate(value, schema, root, path):
    """The subset of JSON Schema (2020-12) that docs/report-json.schema.json
    uses: $ref, type, enum, const, properties, required,
    additionalProperties, items, minimum, pattern, oneOf."""
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise SchemaError("unsupported $ref %s" % ref)
        return validate(value, root["$defs"][ref[len("#/$defs/"):]], root,
                        path)
    if "oneOf" in schema:
        ok = 0
        for s in schema["oneOf"]:
            try:
                validate(value, s, root, path)
                ok += 1
            except SchemaError:
                pass
        if ok != 1:
            raise SchemaError("%s: matches %d of oneOf" % (path, ok))
    types = schema.get("type")
    if types is not None:
        types = types if isinstance(types, list) else [types]
        checks = {
            "object": lambda v: isinstance(v, dict),
            "array": lambda v: isinstance(v, list),
            "string": lambda v: isinstance(v, str),
            "integer": lambda v: isinstance(v, int)
            and not isinstance(v, bool),
            "number": lambda v: isinstance(v, (int, float))
            and not isinstance(v, bool),
            "boolean": lambda v: isinstance(v, bool),
            "null": lambda v: v is None,
        }
        if not any(checks[t](value) for t in types):
            raise SchemaError("%s: %r is not %s" % (path, value, types))
    if "enum" in schema and value not in schema["enum"]:
        raise SchemaError("%s: %r not in %s" % (path, value, schema["enum"]))
    if "const" in schema and value != schema["const"]:
        raise SchemaError("%s: %r is not %r" % (path, value, schema["const"]))
    if "minimum" in schema and isinstance(value, int) and \
            value < schema["minimum"]:
        raise SchemaError("%s: %r < %r" % (path, value, schema["minimum"]))
    if "pattern" in schema and isinstance(value, str) and \
            not re.search(schema["pattern"], value):
        raise SchemaError("%s: %r does not match %s"
                          % (path, value, schema["pattern"]))
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for k in schema.get("required", []):
            if k not in value:
                raise SchemaError("%s: missing %s" % (path, k))
        for k, v in value.items():
            if k in props:
                validate(v, props[k], root, path + "." + k)
            elif schema.get("additionalProperties", True) is False:
                raise SchemaError("%s: unexpected property %s" % (path, k))
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            validate(v, schema["items"], root, "%s[%d]" % (path, i))


def cmd_schema(args):
    doc = load(args[0])
    schema = load(args[1])
    try:
        validate(doc, schema, schema, "$")
    except SchemaError as e:
        fail([str(e)])
    try:
        import jsonschema  # a second opinion, when installed
        jsonschema.validate(doc, schema)
        second = " (and jsonschema)"
    except ImportError:
        second = ""
    except Exception as e:  # jsonschema.ValidationError
        fail(["jsonschema: %s" % e])
    print("OK: %s document validates%s" % (doc["command"], second))


def cmd_zeros(args):
    doc = load(args[0])
    errors = []
    rows = doc["functions"]
    for r in rows:
        if r["status"] != "unchanged" or r["delta"] or r["atomics_delta"]:
            errors.append("row %s" % r)
    s = doc["summary"]
    if s["delta"] or s["atomics_delta"] or s["added"] or s["removed"] or \
            s["changed"]:
        errors.append("summary %s" % s)
    if not rows:
        errors.append("no rows")
    if errors:
        fail(errors)
    print("OK: %d functions, all deltas zero" % len(rows))


def cmd_diff(args):
    diff, old, new = load(args[0]), load(args[1]), load(args[2])
    errors = []
    sides = {}
    for side, doc in (("old", old), ("new", new)):
        sizes = {}
        for f in functions_of(doc):
            sizes[f["mangled_name"]] = (f["size"], f["atomics"])
        sides[side] = sizes
    rows = diff["functions"]
    names = set()
    for r in rows:
        name = r["mangled_name"]
        names.add(name)
        for side in ("old", "new"):
            want = sides[side].get(name, (0, 0))
            have = (r[side + "_size"], r[side + "_atomics"])
            if want != have:
                errors.append("%s: %s (size, atomics) %s, functions report %s"
                              % (name, side, have, want))
        status = ("added" if name not in sides["old"] else
                  "removed" if name not in sides["new"] else
                  "unchanged" if sides["old"][name] == sides["new"][name]
                  else "changed")
        if r["status"] != status:
            errors.append("%s: status %s, expected %s"
                          % (name, r["status"], status))
        if r["delta"] != r["new_size"] - r["old_size"] or \
                r["atomics_delta"] != r["new_atomics"] - r["old_atomics"]:
            errors.append("%s: deltas do not add up" % name)
    if names != set(sides["old"]) | set(sides["new"]):
        errors.append("rows %s, functions %s"
                      % (sorted(names), sorted(set(sides["old"]) |
                                               set(sides["new"]))))
    keys = [abs(r["delta"]) for r in rows]
    if keys != sorted(keys, reverse=True):
        errors.append("rows are not sorted by |delta|: %s" % keys)
    s = diff["summary"]
    if s["old_size"] != sum(v[0] for v in sides["old"].values()) or \
            s["new_size"] != sum(v[0] for v in sides["new"].values()) or \
            s["delta"] != s["new_size"] - s["old_size"]:
        errors.append("summary sizes %s" % s)
    for status in ("added", "removed", "changed", "unchanged"):
        if s[status] != sum(r["status"] == status for r in rows):
            errors.append("summary %s count" % status)
    if errors:
        fail(errors)
    print("OK: %d rows: %d added, %d removed, %d changed, %d unchanged"
          % (len(rows), s["added"], s["removed"], s["changed"],
             s["unchanged"]))


class _Tables(html.parser.HTMLParser):
    """The first cells of the body rows of every table, by table class."""

    def __init__(self):
        super().__init__()
        self.tables = {}
        self.current = None
        self.in_body = False
        self.cell = None
        self.row = None
        self.scripts = self.external = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.current = self.tables.setdefault(
                attrs.get("class", "").split()[-1], [])
        elif tag == "tbody":
            self.in_body = True
        elif tag == "tr" and self.in_body:
            self.row = []
        elif tag == "td" and self.row is not None:
            self.cell = ""
        elif tag in ("script", "img", "link", "iframe") and \
                ("src" in attrs or "href" in attrs):
            self.external += 1

    def handle_endtag(self, tag):
        if tag == "tbody":
            self.in_body = False
        elif tag == "td" and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.current.append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def cmd_html(args):
    with open(args[0]) as f:
        page = f.read()
    doc = load(args[1])
    parser = _Tables()
    parser.feed(page)
    errors = []
    if parser.external:
        errors.append("%d external resources" % parser.external)
    if doc["command"] == "functions":
        tables = {"functions": [f["name"] for f in functions_of(doc)]}
    elif doc["command"] == "atomics":
        tables = {"atomics": [a["address"] for file in doc["files"]
                              for a in file["atomics"]]}
    elif doc["command"] == "trace":
        tables = {"trace-sites": [str(x["rank"]) for x in doc["sites"]],
                  "trace-functions": [str(x["rank"])
                                      for x in doc["functions"]]}
    else:
        tables = {"diff": [d["name"] for d in doc["functions"]]}
    count = 0
    for table, want in tables.items():
        rows = parser.tables.get(table, [])
        have = [r[0] for r in rows]
        if "--sorted-by-name" in args:
            want = sorted(want)
        if have != want:
            errors.append("table rows %s, expected %s" % (have, want))
        if not rows:
            errors.append("no rows")
        count += len(rows)
    if errors:
        fail(errors)
    print("OK: %d rows in the %s table%s" % (count, " and ".join(tables),
                                             "s" if len(tables) > 1 else ""))


def near(a, b):
    return abs(a - b) <= 1e-6


def check_trace_row(kind, row, doc, errors):
    """The sums of one site or function of a trace over its processes."""
    total = doc["totals"]["samples"]
    procs = row["processes"]
    where = "%s %d (%s)" % (kind, row["rank"], row["function"])
    runs = {(p["pid"], p["run"]) for p in doc["processes"]}
    if sum(p["samples"] for p in procs) != row["samples"]:
        errors.append("%s: processes' samples do not add up" % where)
    if not near(row["share"], row["samples"] / total):
        errors.append("%s: share %s is not %d/%d"
                      % (where, row["share"], row["samples"], total))
    for p in procs:
        if (p["pid"], p["run"]) not in runs:
            errors.append("%s: unknown process %s" % (where, p))
    counts = [p["samples"] for p in procs]
    if counts != sorted(counts, reverse=True):
        errors.append("%s: processes not by samples: %s" % (where, counts))
    if kind == "site":
        for x in [row] + procs:
            if x["exact_samples"] + x["skid_samples"] != x["samples"]:
                errors.append("%s: exact + skid != samples in %s" % (where, x))
    elif sum(p["atomic_samples"] for p in procs) != row["atomic_samples"]:
        errors.append("%s: atomic samples do not add up" % where)


def cmd_trace(args):
    doc = load(args[0])
    errors = []
    for kind, rows in (("site", doc["sites"]), ("function", doc["functions"])):
        counts = [r["samples"] for r in rows]
        if counts != sorted(counts, reverse=True):
            errors.append("%ss not ranked by samples: %s" % (kind, counts))
        if [r["rank"] for r in rows] != list(range(1, len(rows) + 1)):
            errors.append("%ss: ranks are not 1..%d" % (kind, len(rows)))
        for r in rows:
            check_trace_row(kind, r, doc, errors)
    t = doc["totals"]
    for field in ("samples", "atomic_samples", "covered_samples",
                  "uncovered_samples", "dropped_samples", "cpu_ns"):
        if t[field] != sum(p[field] for p in doc["processes"]):
            errors.append("totals.%s is not the processes' sum" % field)
    if t["processes"] != len(doc["processes"]) or \
            len({p["run"] for p in doc["processes"]}) != len(doc["processes"]):
        errors.append("processes: not one per run")
    if not near(t["sample_ratio"],
                t["samples"] / (t["cpu_ns"] / 1e9 * doc["hz"])):
        errors.append("sample_ratio %s is wrong" % t["sample_ratio"])
    if t["shown_sites"] != len(doc["sites"]) or \
            t["shown_functions"] != len(doc["functions"]):
        errors.append("shown_sites or shown_functions is wrong")
    check_trace_stacks(doc, errors)
    if errors:
        fail(errors)
    print("OK: %d sites, %d functions, %d processes: ranks, sums and shares"
          " add up; %d stacks, their callers too"
          % (len(doc["sites"]), len(doc["functions"]), t["processes"],
             len(doc["stacks"])))


def check_trace_stacks(doc, errors):
    """Stacks are ranked and add up over their processes; each row's
    stack_samples are the samples of the stacks charged to it, its callers
    the heaviest first and no more than those."""
    stacks, frames = doc["stacks"], doc["frames"]
    counts = [s["samples"] for s in stacks]
    if counts != sorted(counts, reverse=True):
        errors.append("stacks not ranked by samples: %s" % counts)
    for s in stacks:
        if sum(p["samples"] for p in s["processes"]) != s["samples"]:
            errors.append("stack %d: processes' samples do not add up"
                          % s["rank"])
        if s["atomic_samples"] > s["samples"] or not s["frames"] or \
                any(f >= len(frames) for f in s["frames"]):
            errors.append("stack %d: bad atomic samples or frames" % s["rank"])
    whole = doc["totals"]["shown_stacks"] == doc["totals"]["stacks"]
    for kind, rows in (("site", doc["sites"]), ("function", doc["functions"])):
        for r in rows:
            charged = sum(s["samples"] for s in stacks
                          if s[kind + "_rank"] == r["rank"])
            if whole and charged != r["stack_samples"]:
                errors.append("%s %d: stack_samples %d, its stacks' %d"
                              % (kind, r["rank"], r["stack_samples"], charged))
            paths = [c["samples"] for c in r["callers"]]
            if paths != sorted(paths, reverse=True) or \
                    sum(paths) > r["stack_samples"]:
                errors.append("%s %d: callers %s" % (kind, r["rank"], paths))
            for c in r["callers"]:
                if any(f >= len(frames) for f in c["frames"]):
                    errors.append("%s %d: caller frame out of range"
                                  % (kind, r["rank"]))


def data_sharing(accesses, line_size, across_processes):
    """The verdict of docs/Report.md ("Data"), written again: pairs of
    accesses of two threads (of one process, but for a shared mapping), at
    least one writing, are false sharing where their bytes do not overlap,
    true sharing where they do; two threads each on its own stack share
    nothing."""
    ranges = {}
    for a in accesses:
        size = min(a["size"] or 1, line_size)
        key = (a["offset"], a["offset"] + size,
               (a["pid"], a["run"], a["thread"]))
        own = a["region"] == "stack" and \
            a.get("stack_owner", a["thread"]) == a["thread"]
        writes, all_own = ranges.get(key, (False, True))
        ranges[key] = (writes or a["kind"] != "read", all_own and own)
    verdict = set()
    items = list(ranges.items())
    for i, ((b1, e1, t1), (w1, o1)) in enumerate(items):
        for (b2, e2, t2), (w2, o2) in items[i + 1:]:
            if t1 == t2 or not (w1 or w2) or (o1 and o2):
                continue
            if not across_processes and t1[:2] != t2[:2]:
                continue
            verdict.add("true" if b1 < e2 and b2 < e1 else "false")
    return "+".join(sorted(verdict)) or "none"


def cmd_data(args):
    """A trace document's "data": lines ranked by samples, each line's
    samples those of its accesses and of its members, each member's those
    of its kinds and of its sites, threads and processes counted, the
    verdict recomputed, the shares of all samples."""
    doc = load(args[0])
    data, errors = doc["data"], []
    total = doc["totals"]["samples"]
    lines = data["lines"]
    for i, line in enumerate(lines):
        where = "line %d (%s)" % (line["rank"], line["line"])
        if line["rank"] != i + 1:
            errors.append("%s: rank" % where)
        if i and lines[i - 1]["samples"] < line["samples"]:
            errors.append("%s: not ranked by samples" % where)
        acc, members = line["accesses"], line["members"]
        if sum(a["samples"] for a in acc) != line["samples"]:
            errors.append("%s: accesses' samples" % where)
        if sum(m["samples"] for m in members) != line["samples"]:
            errors.append("%s: members' samples" % where)
        for m in members:
            kinds = m["read_samples"] + m["write_samples"] + m["rmw_samples"]
            if kinds != m["samples"] or \
                    sum(x["samples"] for x in m["sites"]) != m["samples"]:
                errors.append("%s: member %s: kinds or sites" % (where, m["name"]))
        for a in acc:
            if members[a["member"]]["name"] != a["name"]:
                errors.append("%s: access named %s in member %s" % (
                    where, a["name"], members[a["member"]]["name"]))
        threads = {(a["pid"], a["run"], a["thread"]) for a in acc}
        if len(threads) != line["threads"] or \
                len({t[:2] for t in threads}) != line["processes"]:
            errors.append("%s: threads or processes" % where)
        sharing = data_sharing(acc, data["line_size"],
                               line["region"] == "shared")
        if sharing != line["sharing"]:
            errors.append("%s: sharing %s, recomputed %s" % (
                where, line["sharing"], sharing))
        if not near(line["share"], line["samples"] / total if total else 0):
            errors.append("%s: share" % where)
    samples = sum(l["samples"] for l in lines)
    if data["lines_total"] == len(lines) and \
            samples != data["data_samples"] - data["data_samples_dropped"]:
        errors.append("lines' samples %d, data_samples less dropped %d" % (
            samples, data["data_samples"] - data["data_samples_dropped"]))
    if errors:
        fail(errors)
    print("OK: %d lines, %d samples: members, accesses, threads and "
          "verdicts add up" % (len(lines), samples))


def png_pixels(data):
    """Width, height and rows of (r, g, b) of an 8-bit RGB or RGBA PNG,
    decoded with zlib alone."""
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    if depth != 8 or colour not in (2, 6):
        fail(["PNG of bit depth %d, colour type %d" % (depth, colour)])
    channels = 3 if colour == 2 else 4
    idat, at = b"", 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        prev = line
    return width, height, rows


def cmd_png(args):
    with open(args[0], "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        fail(["%s is not a PNG file" % args[0]])
    width, height = struct.unpack(">II", data[16:24])
    if width < 100 or height < 100 or len(data) < 2000:
        fail(["%dx%d, %d bytes: too small" % (width, height, len(data))])
    # The page rendered: besides the background, several colours fill
    # areas of their own (treemap tiles), not only text's few pixels.
    width, height, rows = png_pixels(data)
    counts = collections.Counter(p for row in rows for p in row)
    background = counts.most_common(1)[0][0]
    filled = [c for c, n in counts.items() if c != background and n >= 400]
    if len(filled) < 4:
        fail(["%s: %d colours fill areas besides the background %s: a blank "
              "page?" % (args[0], len(filled), background)])
    print("OK: PNG screenshot")


SUMMED = ("size", "atomics", "functions")
DIFF_SUMMED = SUMMED + ("old_size", "old_atomics")


def embedded_trees(path):
    with open(path, encoding="utf-8") as f:
        page = f.read()
    found = re.findall(r'<script type="application/json" class="treemap-data">'
                       r'(.*?)</script>', page, re.S)
    if not found:
        fail(["%s embeds no treemap data" % path])
    return [json.loads(text) for text in found]


def check_sums(node, fields, errors, leaves):
    kids = node.get("children", [])
    if node["kind"] == "function":
        if kids or node["functions"] != 1:
            errors.append("function %s has children" % node["name"])
        leaves.append(node)
        return
    if not kids:
        errors.append("%s %s has no children" % (node["kind"], node["name"]))
    for kid in kids:
        check_sums(kid, fields, errors, leaves)
    for field in fields:
        if node[field] != sum(k[field] for k in kids):
            errors.append("%s %s: %s %d, children's sum %d"
                          % (node["kind"], node["name"], field, node[field],
                             sum(k[field] for k in kids)))


def outline(node, depth=0):
    line = "%s%s %s size=%d atomics=%d functions=%d" % (
        "  " * depth, node["kind"], node["name"], node["size"],
        node["atomics"], node["functions"])
    if "old_size" in node:
        line += " old_size=%d old_atomics=%d" % (node["old_size"],
                                                 node["old_atomics"])
    print(line)
    # By name: the sizes (and so the page's order) vary with the compiler.
    for kid in sorted(node.get("children", []), key=lambda k: k["name"]):
        outline(kid, depth + 1)


def cmd_tree(args):
    diff = "--diff" in args
    (tree,) = embedded_trees(args[0])
    with open(args[1]) as f:
        report = json.load(f)
    errors, leaves = [], []
    check_sums(tree["tree"], DIFF_SUMMED if diff else SUMMED, errors, leaves)
    if diff:
        want = sorted((r["name"], r["old_size"], r["new_size"],
                       r["old_atomics"], r["new_atomics"])
                      for r in report["functions"])
        have = sorted((n["name"], n["old_size"], n["size"], n["old_atomics"],
                       n["atomics"]) for n in leaves)
    else:
        want = sorted((f["name"], f["size"], f["atomics"])
                      for f in report["files"][0]["functions"])
        have = sorted((n["name"], n["size"], n["atomics"]) for n in leaves)
    if want != have:
        errors.append("functions in the tree %s, in the report %s"
                      % (have, want))
    if errors:
        fail(errors)
    print("OK: %d functions in the tree" % len(leaves))
    outline(tree["tree"])


class DomParser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.crumbs, self.titles = [], [], []

    def handle_starttag(self, tag, attrs):
        self.stack.append((tag, dict(attrs).get("class", "")))

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data):
        tags = [t for t, _ in self.stack]
        if any(t == "nav" and "breadcrumbs" in c for t, c in self.stack):
            self.crumbs.append(data)
        elif tags and tags[-1] == "title" and any(
                t == "svg" and "zoom" in c for t, c in self.stack):
            self.titles.append(data)


def cmd_dom(args):
    parser = DomParser()
    with open(args[0], encoding="utf-8") as f:
        parser.feed(f.read())
    if not parser.crumbs or not parser.titles:
        fail(["no breadcrumbs or no tiles: the script did not draw"])
    # ASCII output whatever the locale: the page's separator is U+203A.
    print("breadcrumbs: " + "".join(parser.crumbs).replace("\u203a", ">"))
    for title in parser.titles:
        print("tile: " + title)


def proto_fields(data):
    """The (field, value) pairs of a protocol buffer message: varints as
    ints, length-delimited fields as bytes."""
    i, out = 0, []

    def varint():
        nonlocal i
        shift = value = 0
        while True:
            b = data[i]
            i += 1
            value |= (b & 0x7f) << shift
            shift += 7
            if b < 0x80:
                return value
    while i < len(data):
        key = varint()
        if key & 7 == 0:
            out.append((key >> 3, varint()))
        elif key & 7 == 2:
            n = varint()
            out.append((key >> 3, data[i:i + n]))
            i += n
        else:
            raise ValueError("wire type %d" % (key & 7))
    return out


def decode_packed(data):
    values, shift, value = [], 0, 0
    for b in data:
        value |= (b & 0x7f) << shift
        shift += 7
        if b < 0x80:
            values.append(value)
            shift = value = 0
    return values


def cmd_pprof(args):
    """A gzipped profile.proto, decoded by hand (the gzip module checks the
    CRC and size): its types, mappings and each sample as its functions,
    outermost first (inline frames expanded), values and labels."""
    import gzip
    with gzip.open(args[0], "rb") as f:
        top = proto_fields(f.read())
    strings = [v.decode() for k, v in top if k == 6]
    fields = proto_fields
    funcs, locs, out = {}, {}, []
    for k, v in top:
        if k == 5:
            f = dict(fields(v))
            funcs[f[1]] = strings[f.get(2, 0)]
        elif k == 4:
            f = fields(v)
            lid = dict(f)[1]
            lines = [dict(fields(l)) for n, l in f if n == 4]
            locs[lid] = lines
    for k, v in top:
        if k in (1, 11):
            t = dict(fields(v))
            out.append("%s: %s/%s" % ("sample_type" if k == 1 else
                                      "period_type", strings[t[1]],
                                      strings[t[2]]))
        elif k == 12:
            out.append("period: %d" % v)
        elif k == 3:
            m = dict(fields(v))
            flags = "".join("1" if m.get(n) else "0" for n in (7, 8, 9, 10))
            out.append("mapping %d: %s build_id=%s flags=%s" % (
                m[1], os.path.basename(strings[m.get(5, 0)]),
                strings[m.get(6, 0)], flags))
    for k, v in top:
        if k != 2:
            continue
        f = fields(v)
        ids = [x for n, d in f if n == 1 for x in decode_packed(d)]
        values = [x for n, d in f if n == 2 for x in decode_packed(d)]
        labels = []
        for n, d in f:
            if n == 3:
                lab = dict(fields(d))
                labels.append("%s=%s" % (strings[lab[1]], strings[lab[2]]))
        names = []
        for lid in reversed(ids):
            names += [funcs[l[1]] + (":%d" % l[2] if l.get(2) else "")
                      for l in reversed(locs[lid])]
        out.append("sample: %s %s%s" % (";".join(names),
                                       " ".join(map(str, values)),
                                       (" {" + ", ".join(labels) + "}")
                                       if labels else ""))
    print("\n".join(out))


class FlameParser(html.parser.HTMLParser):
    """The titles of the boxes (g.frame) of svg.flame, in drawing order,
    with each box's width."""

    def __init__(self):
        super().__init__()
        self.in_flame = False
        self.box = None
        self.boxes = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg" and "flame" in attrs.get("class", ""):
            self.in_flame = True
        elif self.in_flame and tag == "g":
            self.box = ["", 0]
        elif self.box is not None and tag == "rect":
            self.box[1] = float(attrs.get("width", 0))

    def handle_endtag(self, tag):
        if tag == "svg":
            self.in_flame = False
        elif tag == "g" and self.box is not None:
            self.boxes.append(self.box)
            self.box = None

    def handle_data(self, data):
        if self.box is not None and self.lasttag == "title":
            self.box[0] += data


def cmd_flame(args):
    """The flame graph's boxes as a browser's --dump-dom wrote them, after
    the script drew it: a line per box, its title and width in pixels."""
    parser = FlameParser()
    with open(args[0], encoding="utf-8") as f:
        parser.feed(f.read())
    if not parser.boxes:
        fail(["no flame graph boxes: the script did not draw"])
    for title, width in parser.boxes:
        print("box: %s (%.0f px)" % (title, width))


def main():
    commands = {"pprof": cmd_pprof, "flame": cmd_flame, "nm": cmd_nm, "runtime": cmd_runtime, "objects": cmd_objects,
                "csv": cmd_csv, "schema": cmd_schema, "zeros": cmd_zeros,
                "diff": cmd_diff, "html": cmd_html,
                "png": cmd_png, "trace": cmd_trace, "data": cmd_data, "tree": cmd_tree,
                "dom": cmd_dom, "symbolizer": cmd_symbolizer,
                "addresses": cmd_addresses, "chains": cmd_chains}
    if len(sys.argv) < 3 or sys.argv[1] not in commands:
        print(__doc__, file=sys.stderr)
        return 2
    commands[sys.argv[1]](sys.argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
