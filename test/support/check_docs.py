"""Checks that the documentation names everything a user can set, each item
taken from its one definition (test/docs/*-documented.test):

  options   every runtime option of rt/core/options.inc is in pcmap(7) and
            in a user page (docs/*.md, not docs/design/); every environment
            variable the runtime reads (rt/, getenv) is in the ENVIRONMENT
            of pcmap(7);
  report    every subcommand of pcmap-report, every option each one takes
            and every value of those options (from their --help) is in
            docs/Report.md and in pcmap-report(1), the option in the
            subcommand's section of the page and, where Report.md has its
            table of options, in a row for that subcommand;
  drivers   every option of pcmap's part of `pcmap-clang --help` is in
            pcmap-clang(1) and in docs/Drivers.md; every environment
            variable the drivers read (instrument/driver, getenv) is in the
            ENVIRONMENT of pcmap-clang(1).

Prints "missing in <where>: <item>" for each item not found, then
"<N> items, <M> missing". The exit status is 0 unless the sources cannot be
read: FileCheck judges the output.

Usage:
  check_docs.py options --source DIR --man PAGE
  check_docs.py report --source DIR --man PAGE --report BIN
  check_docs.py drivers --source DIR --man PAGE --driver BIN
"""

import argparse
import glob
import os
import re
import subprocess
import sys


class Checker:
    def __init__(self):
        self.items = 0
        self.missing = []

    def expect(self, found, where, item):
        self.items += 1
        if not found:
            self.missing.append("missing in %s: %s" % (where, item))

    def report(self):
        for line in self.missing:
            print(line)
        print("%d items, %d missing" % (self.items, len(self.missing)))


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def mentions(text, word):
    """Whether text has word on its own: not inside a longer name or
    option ("-o" is not in "-output", "trace_hz" not in "trace_hz2")."""
    return re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])",
                     text) is not None


def deroff(text):
    """The text of a roff page, without requests' names, comments and
    escapes."""
    out = []
    for line in text.splitlines():
        if line.startswith(('.\\"', "'\\\"")):
            continue
        if line.startswith("."):
            line = line.split(None, 1)[1] if " " in line else ""
            line = line.replace('"', "")
        line = re.sub(r"\\\[u([0-9A-F]{4})\]",
                      lambda m: chr(int(m.group(1), 16)), line)
        line = re.sub(r"\\f(\[[^]]*\]|\(..|.)", "", line)
        line = re.sub(r"\\\((..)", "", line)
        line = (line.replace("\\-", "-").replace("\\&", "")
                .replace("\\%", "").replace("\\e", "\\"))
        out.append(line)
    return "\n".join(out)


def man_sections(text):
    """{section title: its text}, de-roffed."""
    sections, title = {}, None
    for line in text.splitlines():
        if line.startswith(".SH"):
            title = deroff(line).strip()
            sections[title] = ""
        elif title:
            sections[title] += line + "\n"
    return {t: deroff(s) for t, s in sections.items()}


def c_names(paths, pattern):
    """The strings pattern captures in the C++ sources, comments left out."""
    names = set()
    for path in paths:
        text = re.sub(r"//[^\n]*|/\*.*?\*/", "", read(path), flags=re.S)
        names.update(re.findall(pattern, text))
    return names


def environment(paths):
    return sorted(c_names(paths, r"\bget[eE]nv\(\s*\"(\w+)\""))


def help_of(command):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PCMAP_CLANG", "PCMAP_CLANGXX", "PCMAP_PLUGIN")}
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env)
    return result.stdout.decode("utf-8", "replace")


# --- options -----------------------------------------------------------------


def check_options(args, check):
    inc = os.path.join(args.source, "rt", "core", "options.inc")
    options = sorted(c_names([inc], r"\bPCMAP_OPTION\(\s*\w+\s*,\s*(\w+)"),
                     key=read(inc).find)
    if not options:
        sys.exit("check_docs.py: no option in %s" % inc)
    page = read(args.man)
    sections = man_sections(page)
    pages = sorted(glob.glob(os.path.join(args.source, "docs", "*.md")))
    texts = [read(p) for p in pages]
    for option in options:
        check.expect(mentions(deroff(page), option), "pcmap.7",
                     "option " + option)
        check.expect(any(mentions(t, option) for t in texts),
                     "docs/*.md", "option " + option)
    rt = [p for p in glob.glob(os.path.join(args.source, "rt", "**",
                                            "*.cpp"), recursive=True)
          if "/testing/" not in p]
    for var in environment(rt):
        check.expect(mentions(sections.get("ENVIRONMENT", ""), var),
                     "pcmap.7 ENVIRONMENT", "variable " + var)


# --- report ------------------------------------------------------------------


def cl_options(help_text):
    """The options of an LLVM cl --help: [(option, [value...])]."""
    options = []
    in_options = False
    for line in help_text.splitlines():
        if line.startswith("OPTIONS:"):
            in_options = True
        m = re.match(r"^  (-{1,2}[\w-]+)[= ]?\S*\s+- ", line)
        value = re.match(r"^    =(\S+)\s+- ", line)
        if in_options and m:
            options.append((m.group(1), []))
        elif in_options and value and options:
            options[-1][1].append(value.group(1))
    return options


def subcommands(help_text):
    listing = help_text.split("SUBCOMMANDS:", 1)
    if len(listing) < 2:
        return []
    return re.findall(r"^  (\w[\w-]*)\s+- ", listing[1].split("OPTIONS:")[0],
                      re.M)


def options_table(markdown, names):
    """Report.md's table of options: {option: [(subcommands, row)]}, from
    its rows "| `--opt=...`, `--other` | subcommands | meaning |"; None if
    it has none. "all" is every subcommand, "all but x, y" all others."""
    table, inside = {}, False
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] \
            if line.startswith("|") else []
        if cells[:2] == ["option", "subcommands"]:
            inside = True
            continue
        if not inside:
            continue
        if not cells:
            break
        # "\|" separates values inside a cell.
        cells = [c.strip() for c in
                 line.replace("\\|", "/").strip().strip("|").split("|")]
        if len(cells) < 2 or set(cells[0]) <= set("- "):
            continue
        where = cells[1].replace("`", "")
        if where.startswith("all but "):
            subs = set(names) - set(re.findall(r"[\w-]+", where[8:]))
        elif where.startswith("all"):
            subs = set(names)
        else:
            subs = set(re.findall(r"[\w-]+", where)) & set(names)
        for option in re.findall(r"`(-{1,2}[\w-]+)", cells[0]):
            table.setdefault(option, []).append((subs, " | ".join(cells)))
    return table or None


def check_report(args, check):
    top = help_of([args.report, "--help"])
    names = subcommands(top)
    if not names:
        sys.exit("check_docs.py: pcmap-report --help lists no subcommand")
    doc = read(os.path.join(args.source, "docs", "Report.md"))
    page = read(args.man)
    sections = man_sections(page)
    man_text = deroff(page)
    table = options_table(doc, names)
    for option, values in cl_options(top):
        for where, text in (("docs/Report.md", doc), ("pcmap-report.1",
                                                      man_text)):
            check.expect(mentions(text, option), where, "option " + option)
    for name in names:
        check_subcommand(args, check, name, doc, table, sections)


def check_subcommand(args, check, name, doc, table, sections):
    """A subcommand and its options: in Report.md, in the rows of its table
    of options for the subcommand (their values in those rows), and in the
    subcommand's section of the manual page (their values there or under
    OPTIONS)."""
    command = "pcmap-report " + name
    check.expect(command in doc, "docs/Report.md", "subcommand " + name)
    section = sections.get("PCMAP-REPORT " + name.upper(), "")
    check.expect(command in section, "pcmap-report.1", "subcommand " + name)
    man_values = section + sections.get("OPTIONS", "")
    for option, values in cl_options(help_of([args.report, name, "--help"])):
        item = "%s %s" % (command, option)
        if table is None:
            rows = doc if mentions(doc, option) else ""
            where = "docs/Report.md"
        else:
            rows = "\n".join(row for subs, row in table.get(option, [])
                             if name in subs)
            where = "docs/Report.md (its table of options)"
        check.expect(rows, where, item)
        check.expect(mentions(section, option),
                     "pcmap-report.1 (its section)", item)
        for value in values:
            item = "%s %s=%s" % (command, option, value)
            word = r"(?<![\w+-])" + re.escape(value) + r"(?![\w+-])"
            check.expect(re.search(word, rows), where, item)
            check.expect(re.search(word, man_values), "pcmap-report.1", item)


# --- drivers -----------------------------------------------------------------


def check_drivers(args, check):
    text = help_of([args.driver, "--help"])
    end = text.find("clang's options follow.")
    if end < 0:
        sys.exit("check_docs.py: pcmap-clang --help has no pcmap part")
    options = re.findall(r"^  (-[\w-]+=?)", text[:end], re.M)
    if not options:
        sys.exit("check_docs.py: pcmap-clang --help lists no option")
    doc = read(os.path.join(args.source, "docs", "Drivers.md"))
    page = read(args.man)
    man_text = deroff(page)
    for option in options:
        for where, body in (("pcmap-clang.1", man_text),
                            ("docs/Drivers.md", doc)):
            # "-fsanitize-metadata=" is not in "-fno-sanitize-metadata=" nor
            # in "-fsanitize-metadata-ignorelist=".
            if option.endswith("="):
                found = re.search(r"(?<![\w-])" + re.escape(option), body)
            else:
                found = mentions(body, option)
            check.expect(found, where, "option " + option)
    sources = glob.glob(os.path.join(args.source, "instrument", "driver",
                                     "*.cpp"))
    env = man_sections(page).get("ENVIRONMENT", "")
    for var in environment(sources):
        check.expect(mentions(env, var), "pcmap-clang.1 ENVIRONMENT",
                     "variable " + var)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["options", "report", "drivers"])
    parser.add_argument("--source", required=True, help="the source tree")
    parser.add_argument("--man", required=True, help="the generated page")
    parser.add_argument("--report", help="pcmap-report")
    parser.add_argument("--driver", help="pcmap-clang")
    args = parser.parse_args()
    check = Checker()
    if args.what == "options":
        check_options(args, check)
    elif args.what == "report":
        if not args.report:
            parser.error("report needs --report")
        check_report(args, check)
    else:
        if not args.driver:
            parser.error("drivers needs --driver")
        check_drivers(args, check)
    check.report()


if __name__ == "__main__":
    main()
