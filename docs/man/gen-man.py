#!/usr/bin/env python3
"""Writes pcmap's manual pages, each from the one definition of what it
documents, so that a page cannot drift from the code:

  pcmap-clang.1   the drivers' options, from `pcmap-clang --help` (pcmap's
                  part, before clang's);
  pcmap-report.1  the subcommands and their options, from `pcmap-report
                  --help` and `pcmap-report <subcommand> --help`;
  pcmap.7         the runtime's options (PCMAP_OPTIONS), from
                  rt/core/options.inc, and the drivers' defaults, from
                  rt/optional/driver_options.cpp.

The prose around them (DESCRIPTION, ENVIRONMENT, EXAMPLES, ...) is written
by hand in <page>.in beside this script, in a small subset of Markdown:

  % comment                  a line left out
  ## TITLE                   a section (.SH); "## @name" is a fragment that
                             the generator places itself (a subcommand's notes)
  ### Title                  a subsection (.SS)
  @block@                    a block the generator writes (a line alone)
  {{variable}}               version, date, docdir, llvm_version, ...
  paragraphs                 separated by blank lines
  ```                        a literal block, between two such lines
  - item                     a bullet, continued by lines indented 2
  term                       a definition: the term alone on its line, then
  :   definition             ":   " and the text, continued by lines indented 4
  `code`, *argument*         bold, italic

Usage:
  gen-man.py pcmap-clang.1 --driver BIN ...
  gen-man.py pcmap-report.1 --report BIN ...
  gen-man.py pcmap.7 --options-inc FILE --driver-options FILE ...
with, for each: --version V --changelog FILE --docdir DIR -o OUTPUT.
Python 3 standard library only.
"""

import argparse
import email.utils
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WIDTH = 78


class Error(Exception):
    pass


# --- roff ----------------------------------------------------------------


def escape(text):
    """Text as roff prints it: backslashes and minus signs escaped,
    characters beyond ASCII named."""
    out = []
    for c in text:
        if c == "\\":
            out.append("\\e")
        elif c == "-":
            out.append("\\-")
        elif ord(c) > 126:
            out.append("\\[u%04X]" % ord(c))
        else:
            out.append(c)
    return "".join(out)


def bold(text):
    return "\\fB" + escape(text) + "\\fR"


def italic(text):
    return "\\fI" + escape(text) + "\\fR"


def markup(text):
    """The hand-written subset: `code` bold, *argument* italic."""
    out = []
    for i, part in enumerate(text.split("`")):
        if i % 2:
            out.append(bold(part))
            continue
        pos = 0
        for m in re.finditer(r"\*([^*\s][^*]*)\*", part):
            out.append(escape(part[pos:m.start()]))
            out.append(italic(m.group(1)))
            pos = m.end()
        out.append(escape(part[pos:]))
    return "".join(out)


def help_text(text):
    """Text of a program's --help: <placeholder> in italics."""
    out, pos = [], 0
    for m in re.finditer(r"<([A-Za-z][\w ]*)>", text):
        out.append(escape(text[pos:m.start()]))
        out.append(italic(m.group(1)))
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def option_tag(spec):
    """An option as its --help spells it ("-o <file>", "--top=<N>",
    "-fsanitize-metadata=<list>"): the option bold, its value italic."""
    m = re.match(r"^(\S+?)(=?)(?:\s*<([^>]+)>)?$", spec)
    if not m:
        return bold(spec)
    name, equals, value = m.groups()
    if not value:
        return bold(name + equals)
    if equals:
        return bold(name + "=") + italic(value)
    return bold(name) + " " + italic(value)


def protect(line):
    """A text line that roff will not take for a request."""
    return "\\&" + line if line[:1] in (".", "'") else line


def fill(roff):
    """Roff text (already escaped) as lines of at most WIDTH characters,
    broken at spaces."""
    lines, line = [], ""
    for word in roff.split():
        if line and len(line) + 1 + len(word) > WIDTH:
            lines.append(protect(line))
            line = word
        else:
            line = line + " " + word if line else word
    if line:
        lines.append(protect(line))
    return lines


def quoted(arg):
    return '"' + arg.replace('"', '\\(dq') + '"'


# --- the hand-written templates -------------------------------------------


def substitute(text, variables):
    def value(m):
        if m.group(1) not in variables:
            raise Error("unknown variable {{%s}}" % m.group(1))
        return variables[m.group(1)]

    return re.sub(r"\{\{(\w+)\}\}", value, text)


def read_template(path, variables):
    """The template's sections: a list of (title, lines), the lines before
    the first section under the title None."""
    sections, title, lines = [], None, []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            raw = raw.rstrip("\n")
            if raw.startswith("%"):
                continue
            line = substitute(raw, variables)
            if line.startswith("## "):
                sections.append((title, lines))
                title, lines = line[3:].strip(), []
            else:
                lines.append(line)
    sections.append((title, lines))
    if sections[0][1] and any(l.strip() for l in sections[0][1]):
        raise Error("%s: text before the first section" % path)
    return sections[1:]


def blocks(lines):
    """The blocks of a section's lines: (kind, data) with kind one of
    "para", "literal", "bullet", "definition", "subsection", "generated"."""
    result, i, n = [], 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            j = i + 1
            while j < n and not lines[j].startswith("```"):
                j += 1
            if j == n:
                raise Error("a literal block without its end")
            result.append(("literal", lines[i + 1:j]))
            i = j + 1
        elif line.startswith("### "):
            result.append(("subsection", line[4:].strip()))
            i += 1
        elif re.fullmatch(r"@[\w-]+@", line.strip()):
            result.append(("generated", line.strip()[1:-1]))
            i += 1
        elif line.startswith("- "):
            text = [line[2:]]
            i += 1
            while i < n and lines[i].startswith("  ") and lines[i].strip():
                text.append(lines[i].strip())
                i += 1
            result.append(("bullet", " ".join(text)))
        elif i + 1 < n and lines[i + 1].startswith(":   "):
            text = [lines[i + 1][4:]]
            i += 2
            while i < n and lines[i].startswith("    ") and lines[i].strip():
                text.append(lines[i].strip())
                i += 1
            result.append(("definition", (line.strip(), " ".join(text))))
        else:
            text = []
            while (i < n and lines[i].strip() and
                   not lines[i].startswith(("```", "### ", "- ")) and
                   not re.fullmatch(r"@[\w-]+@", lines[i].strip()) and
                   not (i + 1 < n and lines[i + 1].startswith(":   "))):
                text.append(lines[i].strip())
                i += 1
            result.append(("para", " ".join(text)))
    return result


def render_blocks(items, generated, used):
    """Roff lines of a section's blocks; generated maps the names of @name@
    blocks to their roff lines, used collects the names found."""
    out, first = [], True
    for kind, data in items:
        if kind == "subsection":
            out.append(".SS " + quoted(escape(data)))
            first = True
            continue
        if kind == "generated":
            if data not in generated:
                raise Error("no generated block @%s@" % data)
            used.add(data)
            # A generated block that starts a paragraph says so (.PP).
            lines = generated[data]
            out.extend(lines[1:] if first and lines[:1] == [".PP"] else lines)
        elif kind == "para":
            out.extend([] if first else [".PP"])
            out.extend(fill(markup(data)))
        elif kind == "literal":
            out.extend([] if first else [".PP"])
            out.extend([".RS 4", ".nf"])
            out.extend(protect(escape(l)) for l in data)
            out.extend([".fi", ".RE"])
        elif kind == "bullet":
            out.append(".IP \\(bu 2")
            out.extend(fill(markup(data)))
        elif kind == "definition":
            term, text = data
            out.append(".TP")
            out.extend(fill(markup(term)))
            out.extend(fill(markup(text)))
        first = False
    return out


def write_page(args, name, section, variables, generate):
    """The page <name>.<section>: its template with the generated blocks in
    place. generate(fragments) returns the blocks, {name: roff lines}, given
    the template's fragments ("## @name" sections: {name: blocks}), which
    it takes out of the dictionary as it uses them."""
    template = os.path.join(HERE, "%s.%s.in" % (name, section))
    sections = read_template(template, variables)
    fragments = {title[1:]: blocks(lines) for title, lines in sections
                 if title.startswith("@")}
    generated = generate(fragments)
    if fragments:
        raise Error("%s: fragments for nothing: @%s" % (
            template, ", @".join(sorted(fragments))))
    out = [
        '.\\" Generated by docs/man/gen-man.py from docs/man/%s.%s.in.' % (
            name, section),
        ".TH %s %s %s %s %s" % (quoted(escape(name.upper())), section,
                                quoted(variables["date"]),
                                quoted("pcmap " + escape(args.version)),
                                quoted("pcmap Manual")),
        # Code is not hyphenated, nor spread out to the right margin.
        ".nh",
        ".ad l",
    ]
    used = set()
    for title, lines in sections:
        if title.startswith("@"):
            continue
        out.append(".SH " + quoted(escape(title)))
        if title == "NAME":
            # "name, name - summary", as lexgrog and whatis read it.
            text = " ".join(l.strip() for l in lines if l.strip())
            names, sep, summary = text.partition(" - ")
            if not sep:
                raise Error("%s: NAME is not 'name - summary'" % template)
            out.extend(fill(escape(names) + " \\- " + escape(summary)))
            continue
        out.extend(render_blocks(blocks(lines), generated, used))
    unused = set(generated) - used
    if unused:
        raise Error("%s: no place for @%s@" % (template, "@, @".join(
            sorted(unused))))
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    tmp = args.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, args.output)


# --- pcmap-clang.1: the drivers' help --------------------------------------

CLANG_FOLLOWS = "clang's options follow."


def run_help(command):
    env = dict(os.environ)
    for var in ("PCMAP_CLANG", "PCMAP_CLANGXX", "PCMAP_PLUGIN",
                "PCMAP_OPTIONS"):
        env.pop(var, None)
    env["COLUMNS"] = "80"
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env)
    return result.stdout.decode("utf-8", "replace")


def parse_driver_help(text):
    """pcmap's part of `pcmap-clang --help`: (header, options, notes), the
    options as (spec, description) in order."""
    lines = text.splitlines()
    end = next((i for i, l in enumerate(lines) if CLANG_FOLLOWS in l), None)
    if end is None or not lines:
        raise Error("pcmap-clang --help: no line with \"%s\"" % CLANG_FOLLOWS)
    header, options, notes = lines[0], [], []
    for line in lines[1:end + 1]:
        if line == lines[end]:
            line = line.replace(CLANG_FOLLOWS, "").rstrip()
        m = re.match(r"^  (-\S+)(?:\s{2,}(\S.*))?$", line)
        if m:
            options.append([m.group(1), m.group(2) or ""])
        elif options and not notes and re.match(r"^ {8,}\S", line):
            options[-1][1] = (options[-1][1] + " " + line.strip()).strip()
        elif line.strip():
            notes.append(line.strip())
    if not options:
        raise Error("pcmap-clang --help lists no option")
    return header, [tuple(o) for o in options], " ".join(notes)


def driver_page(args):
    header, options, notes = parse_driver_help(run_help([args.driver,
                                                         "--help"]))
    m = re.search(r"clang \(LLVM ([^)]+)\)", header)
    variables = common_variables(args)
    variables["llvm_version"] = m.group(1) if m else "?"
    roff = []
    for spec, description in options:
        roff += [".TP", option_tag(spec)]
        roff += fill(help_text(description))
    if notes:
        roff.append(".PP")
        roff += fill(help_text(notes))
    write_page(args, "pcmap-clang", 1, variables,
               lambda fragments: {"options": roff})


# --- pcmap-report.1: the subcommands' help ---------------------------------


def parse_cl_help(text):
    """An LLVM cl --help: {"overview", "usage", "subcommands": [(name,
    description)], "description", "options": [(category, spec, text,
    [(value, text)])]}."""
    result = {"overview": [], "usage": "", "subcommands": [],
              "description": "", "options": []}
    part, category = None, None
    for line in text.splitlines():
        if line.startswith("OVERVIEW: "):
            part = "overview"
            result["overview"].append(line[len("OVERVIEW: "):])
        elif line.startswith("SUBCOMMAND '"):
            result["description"] = line.split(": ", 1)[1].strip()
            part = None
        elif line.startswith("USAGE: "):
            result["usage"] = line[len("USAGE: "):].strip()
            part = None
        elif line.startswith("SUBCOMMANDS:"):
            part = "subcommands"
        elif line.startswith("OPTIONS:"):
            part = "options"
        elif part == "overview":
            result["overview"].append(line)
        elif part == "subcommands":
            m = re.match(r"^  (\S+)\s+- (.*)$", line)
            if m:
                result["subcommands"].append((m.group(1), m.group(2).strip()))
        elif part == "options":
            m = re.match(r"^(\S.*):$", line)
            value = re.match(r"^    =(\S+)\s+-\s+(.*)$", line)
            option = re.match(r"^  (-\S+(?: <[^>]+>)?)\s+- (.*)$", line)
            if m:
                category = m.group(1)
            elif value and result["options"]:
                result["options"][-1][3].append(
                    (value.group(1), value.group(2).strip()))
            elif option:
                result["options"].append(
                    (category, option.group(1), option.group(2).strip(), []))
    while result["overview"] and not result["overview"][-1].strip():
        result["overview"].pop()
    return result


def option_name(spec):
    return re.split(r"[= ]", spec, maxsplit=1)[0]


def option_entry(spec, text, values, note=None):
    roff = [".TP", option_tag(spec)]
    roff += fill(help_text(text if text.endswith(".") or not values
                           else text + ":"))
    if values:
        width = min(max(len(v) for v, _ in values) + 2, 16)
        roff.append(".RS")
        for value, value_text in values:
            roff += [".TP %d" % width, bold(value)]
            roff += fill(help_text(value_text))
        roff.append(".RE")
    if note:
        roff.append(".IP")
        roff += fill(note)
    return roff


def overview_parts(overview):
    """The overview's paragraphs (its indented list of subcommands left
    out: the SYNOPSIS has them) and its exit statuses, [(status, text)]."""
    paragraphs, current = [], []
    for line in overview[1:]:
        if not line.strip() or line.startswith("  "):
            if current:
                paragraphs.append(" ".join(current))
            current = []
        else:
            current.append(line.strip())
    if current:
        paragraphs.append(" ".join(current))
    text = " ".join(paragraphs)
    before, sep, statuses = text.partition("Exit status: ")
    if not sep:
        raise Error("pcmap-report --help: no \"Exit status: \" in its "
                    "overview")
    items, depth, start = [], 0, 0
    for i, c in enumerate(statuses):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0 and re.match(r", \d ", statuses[i:]):
            items.append(statuses[start:i])
            start = i + 2
    items.append(statuses[start:].rstrip(". "))
    exits = []
    for item in items:
        m = re.match(r"^(\d+) (.*)$", item.strip(), re.S)
        if not m:
            raise Error("pcmap-report --help: exit status '%s'" % item)
        exits.append((m.group(1), m.group(2)))
    return before.strip(), exits


def synopsis_line(usage):
    """"pcmap-report functions [options] <ELF file>...": the command bold,
    the rest as --help has it."""
    m = re.match(r"^(pcmap-report(?: [a-z]+)?)(.*)$", usage)
    if not m:
        return help_text(usage)
    rest = re.sub(r"\[options\]", "[\\\\fIoptions\\\\fR]", m.group(2))
    parts = rest.split("\\fIoptions\\fR")
    rest = "\\fIoptions\\fR".join(help_text(p) for p in parts)
    return bold(m.group(1)) + rest


def sort_key(option):
    return (option.lstrip("-").lower(), option)


def shared_options(top, subs):
    """The options several takers (the subcommands, and None for the
    command without one) take alike, spelled, described and with the same
    values: {option: (variant, [takers])}, the variant most take. Where
    another taker's option differs (its own values), it is that taker's."""
    variants = {}
    takers = [(name, sub["options"]) for name, _, sub in subs]
    for name, options in takers + [(None, top["options"])]:
        for category, spec, text, values in options:
            variant = (spec, text, tuple(values))
            variants.setdefault(option_name(spec), {}).setdefault(
                variant, []).append(name)
    shared = {}
    for option, by_variant in variants.items():
        variant, names = max(by_variant.items(), key=lambda v: len(v[1]))
        # The command's own (--version) are listed there too.
        if len(names) > 1 or names == [None]:
            shared[option] = (variant, names)
    return shared


def options_section(shared, names):
    roff = []
    for option in sorted(shared, key=sort_key):
        (spec, text, values), takers = shared[option]
        in_subs = [n for n in names if n in takers]
        if len(in_subs) == len(names):
            note = "All subcommands"
        elif in_subs:
            note = "Subcommands: " + ", ".join(bold(n) for n in in_subs)
        else:
            note = "Without a subcommand"
        if None in takers and in_subs:
            note += ", and without a subcommand"
        roff += option_entry(spec, text, values, note + ".")
    return roff


def subcommand_sections(subs, shared, fragments):
    """A section per subcommand: its usage, its description, the notes of
    its fragment, the shared options it takes and its own."""
    out = []
    for name, description, sub in subs:
        out.append(".SH " + quoted(escape("PCMAP-REPORT " + name.upper())))
        out += fill(synopsis_line(sub["usage"]))
        out.append(".PP")
        out += fill(help_text(description.rstrip(".") + "."))
        if name in fragments:
            out += [".PP"] + render_blocks(fragments.pop(name), {}, set())

        def is_shared(o):
            return name in shared.get(option_name(o[1]), (None, []))[1]

        own = [o for o in sub["options"] if not is_shared(o)]
        common = sorted({option_name(o[1]) for o in sub["options"]
                         if is_shared(o)}, key=sort_key)
        if common:
            text = "Options: " + ", ".join(bold(o) for o in common)
            text += " (see OPTIONS)" + (", and these:" if own else ".")
            out += [".PP"] + fill(text)
        elif own:
            out += [".PP", "Options:"]
        for category, spec, otext, values in own:
            out += option_entry(spec, otext, values)
    return out


def report_page(args):
    top = parse_cl_help(run_help([args.report, "--help"]))
    if not top["subcommands"] or not top["overview"]:
        raise Error("pcmap-report --help lists no subcommand")
    subs = []
    for name, description in top["subcommands"]:
        sub = parse_cl_help(run_help([args.report, name, "--help"]))
        if not sub["usage"]:
            raise Error("pcmap-report %s --help has no usage line" % name)
        subs.append((name, description, sub))
    # In the order of the overview's list, where it has one.
    listed = re.findall(r"^  pcmap-report ([a-z]+) ", "\n".join(
        top["overview"]), re.M)
    subs.sort(key=lambda s: listed.index(s[0]) if s[0] in listed else
              len(listed))
    names = [name for name, _, _ in subs]
    shared = shared_options(top, subs)
    synopsis = []
    for name, _, sub in subs:
        synopsis += fill(synopsis_line(sub["usage"])) + [".br"]
    synopsis += fill(bold("pcmap-report") + " [" + bold("--help") + "|" +
                     bold("--version") + "]")
    overview, exits = overview_parts(top["overview"])
    exit_roff = []
    for status, text in exits:
        exit_roff += [".TP", bold(status)] + fill(help_text(text))
    write_page(args, "pcmap-report", 1, common_variables(args),
               lambda fragments: {
                   "synopsis": synopsis,
                   "overview": [".PP"] + fill(help_text(overview)),
                   "exit-status": exit_roff,
                   "options": options_section(shared, names),
                   "subcommands": subcommand_sections(subs, shared,
                                                      fragments)})


# --- pcmap.7: the runtime's options ----------------------------------------


def c_tokens(text):
    """C tokens of text without comments and preprocessor lines: (kind,
    value) with kind "string" (its value unescaped, adjacent literals
    joined), "comment" (a // comment line, its text), "punct" or "word"."""
    tokens, i, n = [], 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            at_line_start = True
            i += 1
        elif c in " \t\r":
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            if at_line_start:
                tokens.append(("comment", text[i + 2:j].strip()))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == "#" and at_line_start:
            while i < n and text[i] != "\n":
                i += 2 if text.startswith("\\\n", i) else 1
        elif c == '"':
            j, value = i + 1, []
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    value.append({"n": "\n", "t": "\t"}.get(text[j + 1],
                                                            text[j + 1]))
                    j += 2
                else:
                    value.append(text[j])
                    j += 1
            s = "".join(value)
            if tokens and tokens[-1][0] == "string":
                tokens[-1] = ("string", tokens[-1][1] + s)
            else:
                tokens.append(("string", s))
            i = j + 1
            at_line_start = False
        elif c.isalnum() or c in "_-":
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_-."):
                j += 1
            tokens.append(("word", text[i:j]))
            i = j
            at_line_start = False
        else:
            tokens.append(("punct", c))
            i += 1
            at_line_start = False
    return tokens


def parse_options_inc(path):
    """The options of options.inc in order: dicts with type, name, default,
    description and group (the comment line above its group, or None)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    # The file's header comment, which shows the macro, is not a group.
    body = re.sub(r"\A(?:[ \t]*//[^\n]*\n)+", "", text)
    tokens = c_tokens(body)
    options, group, pending, i = [], None, [], 0
    while i < len(tokens):
        kind, value = tokens[i]
        if kind == "comment":
            if value:
                pending.append(value)
            i += 1
            continue
        if not (kind == "word" and value == "PCMAP_OPTION"):
            i += 1
            continue
        if pending:
            group, pending = " ".join(pending).rstrip("."), []
        if tokens[i + 1] != ("punct", "("):
            raise Error("%s: PCMAP_OPTION without '('" % path)
        args, arg, depth, i = [], [], 1, i + 2
        while i < len(tokens) and depth:
            tok = tokens[i]
            if tok == ("punct", "("):
                depth += 1
            elif tok == ("punct", ")"):
                depth -= 1
                if not depth:
                    break
            if tok == ("punct", ",") and depth == 1:
                args.append(arg)
                arg = []
            elif tok[0] != "comment":
                arg.append(tok)
            i += 1
        args.append(arg)
        i += 1
        options.append(option_from_args(path, args, group))
    if not options:
        raise Error("%s: no PCMAP_OPTION" % path)
    return options


def option_from_args(path, args, group):
    if len(args) != 4 or any(len(a) != 1 for a in args[:2] + args[3:]):
        raise Error("%s: PCMAP_OPTION takes (Type, Name, Default, "
                    "Description): %r" % (path, args))
    (tkind, type_), (nkind, name) = args[0][0], args[1][0]
    default, (dkind, description) = args[2], args[3][0]
    if tkind != "word" or type_ not in ("bool", "int", "string"):
        raise Error("%s: option type %r" % (path, type_))
    if nkind != "word" or dkind != "string":
        raise Error("%s: PCMAP_OPTION(%s, ...)" % (path, name))
    if type_ == "string":
        if len(default) != 1 or default[0][0] != "string":
            raise Error("%s: %s: a string's default is a literal" % (path,
                                                                   name))
        value = default[0][1]
    else:
        value = "".join(v for _, v in default)
        if type_ == "bool" and value in ("true", "false"):
            value = "1" if value == "true" else "0"
        elif not re.fullmatch(r"-?\d+", value) or (
                type_ == "bool" and value not in ("0", "1")):
            raise Error("%s: %s: default %r" % (path, name, value))
    return {"type": type_, "name": name, "default": value,
            "description": description, "group": group}


def driver_defaults(path):
    """The options the drivers link into programs: the string
    __pcmap_driver_options() returns."""
    with open(path, encoding="utf-8") as f:
        tokens = c_tokens(f.read())
    for i, tok in enumerate(tokens):
        if tok == ("word", "return") and tokens[i + 1][0] == "string":
            return tokens[i + 1][1]
    raise Error("%s: no 'return \"...\"'" % path)


def parse_option_list(text):
    return dict(item.split("=", 1) for item in re.split(r"[:, \t\n]+", text)
                if "=" in item)


def options_page(args):
    options = parse_options_inc(args.options_inc)
    drivers = driver_defaults(args.driver_options)
    by_driver = parse_option_list(drivers)
    names = {o["name"] for o in options}
    for name in by_driver:
        if name not in names:
            raise Error("%s sets '%s', which %s does not declare" % (
                args.driver_options, name, args.options_inc))
    roff, group = [], False
    for o in options:
        if o["group"] != group:
            group = o["group"]
            roff.append(".SS " + quoted(escape(group or "General")))
        default = o["default"]
        shown = bold(default) if default else "empty"
        text = "Default: %s" % shown
        if o["name"] in by_driver and by_driver[o["name"]] != default:
            text += "; %s in programs that %s or %s links" % (
                bold(by_driver[o["name"]]), bold("pcmap-clang"),
                bold("pcmap-clang++"))
        roff += [".TP", bold(o["name"]) + "=" + italic(o["type"])]
        description = o["description"].rstrip()
        if not description.endswith("."):
            description += "."
        roff += fill(escape(description))
        roff += fill(text + ".")
    variables = common_variables(args)
    variables["driver_defaults"] = drivers
    variables["options_count"] = str(len(options))
    write_page(args, "pcmap", 7, variables, lambda fragments: {"options": roff})


# --- main -------------------------------------------------------------------


def changelog_date(path):
    """The date of the changelog's latest entry, YYYY-MM-DD: the pages
    change with the package's version, not with the day they are built."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(" -- "):
                stamp = line.split(">", 1)[-1].strip()
                parsed = email.utils.parsedate_to_datetime(stamp)
                return parsed.strftime("%Y-%m-%d")
    raise Error("%s: no dated entry" % path)


def common_variables(args):
    return {"version": args.version, "date": changelog_date(args.changelog),
            "docdir": args.docdir}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page", choices=["pcmap-clang.1", "pcmap-report.1",
                                         "pcmap.7"])
    parser.add_argument("--version", required=True, help="pcmap's version")
    parser.add_argument("--changelog", required=True,
                        help="packaging/debian/changelog (the pages' date)")
    parser.add_argument("--docdir", required=True,
                        help="the documentation's directory, relative to "
                        "the installation prefix")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--driver", help="pcmap-clang (pcmap-clang.1)")
    parser.add_argument("--report", help="pcmap-report (pcmap-report.1)")
    parser.add_argument("--options-inc", help="rt/core/options.inc (pcmap.7)")
    parser.add_argument("--driver-options",
                        help="rt/optional/driver_options.cpp (pcmap.7)")
    args = parser.parse_args()
    try:
        if args.page == "pcmap-clang.1":
            if not args.driver:
                parser.error("pcmap-clang.1 needs --driver")
            driver_page(args)
        elif args.page == "pcmap-report.1":
            if not args.report:
                parser.error("pcmap-report.1 needs --report")
            report_page(args)
        else:
            if not args.options_inc or not args.driver_options:
                parser.error("pcmap.7 needs --options-inc and "
                             "--driver-options")
            options_page(args)
    except (Error, OSError) as e:
        print("gen-man.py: error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
