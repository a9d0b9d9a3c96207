#!/usr/bin/env python3
"""End-to-end checks of pcmap metadata, built on pcmap_elf.py.

  check_pcmap.py disasm BINARY [--objdump PATH]
      Compares the metadata of a linked executable or DSO with its
      disassembly: every atomic instruction in a function with an
      atomics-complete entry is an atomic PC; every atomic PC starts an
      instruction of such a function; every function entry matches its FUNC
      symbol. Atomic instructions: on x86-64, locked instructions and xchg
      with memory; on AArch64, exclusives, load-acquires and store-releases,
      LSE atomics, barriers, and calls of outline-atomic helpers.

  check_pcmap.py upstream PCMAP_BINARY UPSTREAM_BINARY
      The same source built with pcmap (-fsanitize-metadata=all) and with
      clang -fexperimental-sanitize-metadata=atomics: every offset of
      upstream's sanmd_atomics table is an atomic PC offset of pcmap in the
      function of the same name.

  check_pcmap.py corpus FILE... [--objdump PATH] [--json OUT]
      The disasm check as numbers, for ELF files of real software
      (test/corpus): per file, the functions, the atomics recorded (and of
      them those marked as from inline asm), the locked instructions the
      disassembler shows in covered functions and how many are recorded
      (recall), those missing from functions whose entry claims complete
      atomics (a NO that would be wrong), the table entries that start an
      instruction of a complete function (precision), and the metadata
      bytes against the code bytes. Prints one line per file; exits 1 if a
      file has a wrong NO, an imprecise entry or undecodable metadata.

  check_pcmap.py invariance OBJ_A OBJ_B
      Two relocatable objects of the same source, with and without
      -fsanitize-metadata: every function has the same bytes and the same
      relocations in both (the __pcmap_* registration functions aside).

Each prints one "OK: ..." line and exits 0, or prints every violation and
exits 1. Unreadable input exits 2.
"""

import argparse
import bisect
import collections
import json
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcmap_elf  # noqa: E402

# Instruction prefixes llvm-objdump may print on a line of their own; the
# instruction that follows starts at the prefix's address.
PREFIXES = {"lock", "rep", "repe", "repz", "repne", "repnz", "xacquire",
            "xrelease", "data16", "data32", "addr32", "addr16", "notrack",
            "cs", "ds", "es", "ss", "fs", "gs", "bnd", "rex", "rex64",
            "rex.w", "rex.b", "rex.r", "rex.x", "{vex}", "{vex2}", "{vex3}",
            "{evex}"}

# Fences an inline asm may hold (recorded with the from-asm flag).
ASM_FENCES = {"mfence", "lfence", "sfence"}

_INSN_RE = re.compile(r"^\s+([0-9a-fA-F]+):\s*(.*)$")
_RAW_BYTES_RE = re.compile(r"^((?:[0-9a-f]{2} )+)\s*")


class Checker:
    def __init__(self):
        self.violations = []

    def fail(self, message):
        self.violations.append(message)

    def finish(self, ok_line):
        if self.violations:
            for v in self.violations:
                print("FAIL: " + v)
            print("%d violation(s)" % len(self.violations))
            return 1
        print("OK: " + ok_line)
        return 0


def _load(path):
    elf, md = pcmap_elf.load(path)
    if md.errors:
        raise pcmap_elf.ElfError("; ".join(md.errors))
    return elf, md


# --------------------------------------------------------------------------
# disasm
# --------------------------------------------------------------------------


class Instruction:
    __slots__ = ("addr", "text", "mnemonic", "operands", "prefixes")

    def __repr__(self):
        return "%#x: %s" % (self.addr, self.text)


def disassemble(objdump, binary, machine=None):
    """Instructions of the executable sections, as (addr, text) with
    standalone prefix lines merged into the instruction they prefix. On
    AArch64 every extension is decoded (LSE atomics, RCpc loads): without
    it they read as "<unknown>", and could be neither required nor
    checked."""
    cmd = [objdump, "-d", "--no-show-raw-insn", binary]
    if machine == EM_AARCH64 and "llvm" in os.path.basename(objdump):
        cmd.insert(1, "--mattr=+all")
    try:
        out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        err = getattr(e, "stderr", "") or str(e)
        raise pcmap_elf.ElfError("'%s' failed: %s" % (" ".join(cmd),
                                                      err.strip()))
    insns = []
    pending = None  # (addr, [prefix, ...]) awaiting the prefixed insn
    for line in out.splitlines():
        m = _INSN_RE.match(line)
        if not m:
            # Section and symbol headers, blank lines, "...": a pending
            # prefix cannot span them.
            if line.strip() and pending:
                insns.append(_insn(pending[0], " ".join(pending[1])))
                pending = None
            continue
        addr = int(m.group(1), 16)
        text = m.group(2)
        # Tolerate raw bytes, in case the flags were not honoured.
        rb = _RAW_BYTES_RE.match(text)
        if rb and "\t" in text:
            text = text[rb.end():]
        text = " ".join(text.split("#", 1)[0].split())
        if not text:
            continue
        if text.lower() in PREFIXES:
            if pending:
                pending[1].append(text.lower())
            else:
                pending = (addr, [text.lower()])
            continue
        if pending:
            insns.append(_insn(pending[0], " ".join(pending[1] + [text])))
            pending = None
        else:
            insns.append(_insn(addr, text))
    if pending:
        insns.append(_insn(pending[0], " ".join(pending[1])))
    return insns


def _insn(addr, text):
    i = Instruction()
    i.addr = addr
    i.text = text
    tokens = text.split(None)
    prefixes = []
    while tokens and tokens[0].lower() in PREFIXES and len(tokens) > 1:
        prefixes.append(tokens.pop(0).lower())
    i.prefixes = prefixes
    if tokens and tokens[0].lower() in PREFIXES:  # a lone prefix
        prefixes.append(tokens.pop(0).lower())
    i.mnemonic = tokens[0].lower() if tokens else ""
    i.operands = " ".join(tokens[1:])
    return i


def is_locked(insn):
    """A lock-prefixed instruction, or xchg with a memory operand (which is
    locked implicitly)."""
    if "lock" in insn.prefixes or insn.mnemonic == "lock":
        return True
    return insn.mnemonic.startswith("xchg") and "(" in insn.operands


EM_AARCH64 = 183

# AArch64: exclusives (LDXR, LDAXR, STXR, STLXR and pairs), load-acquire and
# store-release (LDAR, LDAPR, LDAPUR, STLR, STLUR), LSE (CAS, CASP, SWP,
# LD<op>, ST<op>), and the barriers.
_A64_ATOMIC_RE = re.compile(
    r"^(ld(a)?x[rp][bh]?|st(l)?x[rp][bh]?|ldar[bh]?|ldapu?r(s?[bhw])?"
    r"|stlu?r[bh]?|casp?(a|l|al)?[bh]?|swp(a|l|al)?[bh]?"
    r"|ld(add|clr|eor|set|smax|smin|umax|umin)(a|l|al)?[bh]?"
    r"|st(add|clr|eor|set|smax|smin|umax|umin)(l)?[bh]?|dmb|dsb)$")
# A call of an outline-atomic helper (include/pcmap/Format.h) is the atomic's
# call site.
_A64_HELPER_RE = re.compile(r"<__aarch64_(cas|swp|ldadd|ldclr|ldeor|ldset)"
                            r"(1|2|4|8|16)_(relax|acq|rel|acq_rel|sync)>")


def is_aarch64_atomic(insn):
    if insn.mnemonic in ("bl", "b"):
        return bool(_A64_HELPER_RE.search(insn.operands))
    return bool(_A64_ATOMIC_RE.match(insn.mnemonic))


def atomic_instruction_test(elf):
    """The predicate on instructions that must be atomic PCs, and what the
    summary calls them, for the file's architecture."""
    if elf.machine == EM_AARCH64:
        return is_aarch64_atomic, "atomic instructions"
    return is_locked, "lock/xchg instructions"


class FunctionTable:
    """pcmap function entries, searchable by PC."""

    def __init__(self, entries):
        self.entries = sorted(entries, key=lambda e: e.pc)
        self.starts = [e.pc for e in self.entries]

    def find(self, pc):
        i = bisect.bisect_right(self.starts, pc)
        # Entries do not overlap in a sane binary; look back a little in
        # case they do, and take the innermost.
        for j in range(i - 1, max(i - 8, 0) - 1, -1):
            e = self.entries[j]
            if e.pc <= pc < e.pc + e.size:
                return e
        return None


def cmd_disasm(args):
    ck = Checker()
    elf, md = _load(args.binary)
    objdump = args.objdump or shutil.which("llvm-objdump") or "objdump"
    insns = disassemble(objdump, args.binary, elf.machine)
    starts = {i.addr: i for i in insns}
    # The fragments of split functions belong to their function: its
    # features hold in them.
    fragments = pcmap_elf.find_fragments(elf, md.functions)
    table = FunctionTable(list(md.functions) + fragments)
    is_atomic, atomic_words = atomic_instruction_test(elf)

    if not md.functions:
        ck.fail("%s: no pcmap function entries" % args.binary)

    # Function entries overlap nothing and match their symbols.
    for a, b in zip(table.entries, table.entries[1:]):
        if a.pc + a.size > b.pc:
            ck.fail("function entries overlap: %#x+%d (%s) and %#x (%s)"
                    % (a.pc, a.size, a.name, b.pc, b.name))
    without_symbol = 0
    for e in table.entries:
        if isinstance(e, pcmap_elf.Fragment):
            if e.pc not in starts:
                ck.fail("fragment %s at %#x is not an instruction start"
                        % (e.name, e.pc))
            continue
        syms = elf.symbols_at(e.pc)
        if not syms:
            without_symbol += 1
            continue
        if not any(s.size == e.size for s in syms):
            ck.fail("function entry %#x size %d does not match symbol %s"
                    % (e.pc, e.size, ", ".join("%s (size %d)" % (s.name,
                                                                s.size)
                                               for s in syms)))
        if e.pc not in starts:
            ck.fail("function entry %#x (%s) is not an instruction start"
                    % (e.pc, e.name))
        if e.name and e.name.startswith("__pcmap_"):
            ck.fail("registration function %s has a function entry"
                    % e.name)

    # (b) every atomic PC starts an instruction of a covered function.
    # A PC may repeat when a zero-size pseudo-instruction (KILL,
    # IMPLICIT_DEF at -O0) of an atomic's region gets a label at the address
    # of the next instruction. With the same descriptor that is harmless
    # (counted); with two different descriptors the PC is ambiguous.
    pcs = {}
    duplicates = 0
    for r in md.records:
        for pc in r.pcs:
            if pc in pcs:
                if pcs[pc].value != r.descriptor.value:
                    ck.fail("atomic PC %#x (%s) has two descriptors: %s and "
                            "%s" % (pc, elf.describe(pc), pcs[pc].text(),
                                    r.descriptor.text()))
                duplicates += 1
                continue
            pcs[pc] = r.descriptor
            e = table.find(pc)
            if e is None:
                ck.fail("atomic PC %#x (%s, %s) lies in no pcmap function"
                        % (pc, elf.describe(pc), r.descriptor.text()))
            elif not e.features & (pcmap_elf.FEATURE_ATOMICS |
                                   pcmap_elf.FEATURE_HAS_ATOMICS):
                # A function that does not claim complete atomics (an inline
                # asm pcmap cannot analyse) still has those it recorded.
                ck.fail("atomic PC %#x (%s) lies in function %#x (%s) whose "
                        "entry has neither atomics feature"
                        % (pc, elf.describe(pc), e.pc, e.name))
            if pc not in starts:
                ck.fail("atomic PC %#x (%s, %s) is not the start of an "
                        "instruction" % (pc, elf.describe(pc),
                                         r.descriptor.text()))
            elif r.descriptor.from_asm and not (
                    is_atomic(starts[pc]) or
                    starts[pc].mnemonic in ASM_FENCES):
                # Precision of the inline asm recogniser.
                ck.fail("atomic PC %#x (%s, %s) from inline asm is not a "
                        "locked instruction or a fence: %s"
                        % (pc, elf.describe(pc), r.descriptor.text(),
                           starts[pc].text))

    # (a) every locked instruction of an atomics-complete function is an
    # atomic PC.
    checked = 0
    covered = recorded = 0
    for i in insns:
        if not is_atomic(i):
            continue
        e = table.find(i.addr)
        if e is None:
            continue
        # Recall over every covered function, complete or not.
        covered += 1
        recorded += i.addr in pcs
        if not e.features & pcmap_elf.FEATURE_ATOMICS:
            continue
        checked += 1
        if i.addr not in pcs:
            ck.fail("%s at %#x (%s) is not in the atomics table: %s"
                    % ("locked instruction" if is_atomic is is_locked else
                       "atomic instruction", i.addr, elf.describe(i.addr),
                       i.text))

    fragment_text = " and %d fragments" % len(fragments) if fragments else ""
    return ck.finish("%d functions%s (%d without symbol), %d atomic PCs (%d "
                     "repeated), %d %s checked; recall %d/%d in covered "
                     "functions"
                     % (len(md.functions), fragment_text, without_symbol,
                        len(pcs),
                        duplicates, checked, atomic_words, recorded,
                        covered))


# --------------------------------------------------------------------------
# corpus
# --------------------------------------------------------------------------


def _from_asm_test():
    """A predicate on descriptors: whether the atomic came from inline asm
    (descriptor bit 10, decoded by pcmap_elf.Descriptor)."""
    return lambda d: d.from_asm


def corpus_stats(path, objdump, examples=5):
    """The numbers of one linked ELF file; see the module docstring."""
    elf, md = pcmap_elf.load(path)
    stats = {"file": path, "errors": list(md.errors)}
    code = sum(s.size for s in elf.sections
               if s.flags & pcmap_elf.SHF_EXECINSTR and
               s.flags & pcmap_elf.SHF_ALLOC and
               s.type != pcmap_elf.SHT_NOBITS)
    from_asm = _from_asm_test()
    pcs = {}
    for r in md.records:
        for pc in r.pcs:
            pcs.setdefault(pc, r.descriptor)
    table = FunctionTable(list(md.functions) +
                          pcmap_elf.find_fragments(elf, md.functions))
    stats.update({
        "functions": len(md.functions),
        "functions_complete": sum(1 for e in md.functions
                                  if e.features & pcmap_elf.FEATURE_ATOMICS),
        "atomics": len(pcs),
        "atomics_from_asm": (sum(1 for d in pcs.values() if from_asm(d))
                             if from_asm else 0),
        "from_asm_flag_known": from_asm is not None,
        "metadata_bytes": md.bytes_of("pcmap_atomics") +
        md.bytes_of("pcmap_functions"),
        "code_bytes": code,
    })
    if not md.functions:
        stats.update({"visible": 0, "visible_recorded": 0, "wrong_no": 0,
                      "wrong_no_examples": [], "precise": 0,
                      "imprecise_examples": []})
        return stats
    insns = disassemble(objdump, path, elf.machine)
    starts = set(i.addr for i in insns)
    is_atomic, _ = atomic_instruction_test(elf)
    visible = recorded = wrong = 0
    wrong_examples = []
    for i in insns:
        if not is_atomic(i):
            continue
        e = table.find(i.addr)
        if e is None:
            continue
        visible += 1
        if i.addr in pcs:
            recorded += 1
        elif e.features & pcmap_elf.FEATURE_ATOMICS:
            wrong += 1
            if len(wrong_examples) < examples:
                wrong_examples.append("%#x %s: %s" % (
                    i.addr, elf.describe(i.addr), i.text))
    precise = 0
    imprecise = []
    for pc, d in sorted(pcs.items()):
        e = table.find(pc)
        if pc in starts and e is not None and \
                e.features & pcmap_elf.FEATURE_ATOMICS:
            precise += 1
        elif len(imprecise) < examples:
            why = ("in no function entry" if e is None else
                   "not an instruction start" if pc not in starts else
                   "in a function without the atomics feature")
            imprecise.append("%#x %s (%s): %s" % (pc, elf.describe(pc),
                                                  d.text(), why))
    stats.update({"visible": visible, "visible_recorded": recorded,
                  "wrong_no": wrong, "wrong_no_examples": wrong_examples,
                  "precise": precise, "imprecise_examples": imprecise})
    return stats


def corpus_line(st):
    recall = ("%.1f%%" % (100.0 * st["visible_recorded"] / st["visible"])
              if st["visible"] else "-")
    precision = ("%.1f%%" % (100.0 * st["precise"] / st["atomics"])
                 if st["atomics"] else "-")
    share = ("%.2f%%" % (100.0 * st["metadata_bytes"] / st["code_bytes"])
             if st["code_bytes"] else "-")
    return ("%s: functions %d, atomics %d (asm %d), visible %d, recall %s, "
            "wrong NO %d, precision %s, metadata %d B = %s of code"
            % (st["file"], st["functions"], st["atomics"],
               st["atomics_from_asm"], st["visible"], recall, st["wrong_no"],
               precision, st["metadata_bytes"], share))


def cmd_corpus(args):
    objdump = args.objdump or shutil.which("llvm-objdump") or "objdump"
    results = []
    bad = 0
    for path in args.files:
        try:
            st = corpus_stats(path, objdump)
        except pcmap_elf.ElfError as e:
            st = {"file": path, "errors": [str(e)]}
        results.append(st)
        if st["errors"]:
            print("%s: error: %s" % (path, "; ".join(st["errors"])))
            bad += 1
            continue
        print(corpus_line(st))
        for x in st["wrong_no_examples"]:
            print("  wrong NO: " + x)
        for x in st["imprecise_examples"]:
            print("  imprecise: " + x)
        if st["wrong_no"] or st["precise"] != st["atomics"]:
            bad += 1
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    return 1 if bad else 0


# --------------------------------------------------------------------------
# upstream
# --------------------------------------------------------------------------


def _offsets_by_function(elf, pcs, ck, what):
    result = collections.defaultdict(set)
    for pc in pcs:
        s = elf.function_at(pc)
        if s is None:
            ck.fail("%s atomic PC %#x lies in no FUNC symbol" % (what, pc))
            continue
        result[s.name].add(pc - s.value)
    return result


def cmd_upstream(args):
    ck = Checker()
    pelf, pmd = _load(args.pcmap_binary)
    uelf, umd = _load(args.upstream_binary)
    if not any(k == "sanmd_atomics" for _, k, _, _ in umd.sections):
        ck.fail("%s has no sanmd_atomics section" % args.upstream_binary)
    if not any(k == "pcmap_atomics" for _, k, _, _ in pmd.sections):
        ck.fail("%s has no pcmap_atomics section" % args.pcmap_binary)
    # Unique PCs: both backends may list a PC twice (zero-size
    # pseudo-instructions of an atomic's region).
    ppcs = sorted(set(pmd.atomic_pcs))
    upcs = sorted(set(umd.sanmd_atomics))
    pfun = _offsets_by_function(pelf, ppcs, ck, "pcmap")
    ufun = _offsets_by_function(uelf, upcs, ck, "upstream")

    def size_of(elf, name):
        sizes = {s.size for s in elf.function_symbols() if s.name == name}
        return ",".join(str(x) for x in sorted(sizes)) or "?"

    for name in sorted(ufun):
        missing = sorted(ufun[name] - pfun.get(name, set()))
        if missing:
            ck.fail("%s: upstream atomic offsets %s missing from pcmap "
                    "(pcmap has %s; function size pcmap %s, upstream %s)"
                    % (name, ", ".join("%#x" % o for o in missing),
                       ", ".join("%#x" % o for o in
                                 sorted(pfun.get(name, ()))) or "none",
                       size_of(pelf, name), size_of(uelf, name)))
    return ck.finish("upstream has %d atomic PCs in %d functions, pcmap has "
                     "%d in %d functions; none missing"
                     % (len(upcs), len(ufun), len(ppcs), len(pfun)))


# --------------------------------------------------------------------------
# invariance
# --------------------------------------------------------------------------


def _functions_of_object(elf):
    """{key: (symbol, section)} of the defined FUNC symbols of an ET_REL
    object, minus the pcmap registration functions. The key is the name,
    numbered when a name repeats (local symbols)."""
    out = {}
    seen = collections.Counter()
    for s in elf.function_symbols(".symtab"):
        if s.name.startswith("__pcmap_"):
            continue
        seen[s.name] += 1
        key = s.name if seen[s.name] == 1 else "%s#%d" % (s.name,
                                                          seen[s.name])
        out[key] = (s, elf.sections[s.shndx])
    return out


def _function_relocs(elf, sym, sec, cache):
    if sec.index not in cache:
        cache[sec.index] = elf.relocations(sec)
    out = []
    for r in cache[sec.index]:
        if sym.value <= r.offset < sym.value + sym.size:
            out.append((r.offset - sym.value, r.type,
                        elf.symbol_display_name(r.symbol), r.addend))
    return sorted(out)


def cmd_invariance(args):
    ck = Checker()
    ea = pcmap_elf.ElfFile(args.obj_a)
    eb = pcmap_elf.ElfFile(args.obj_b)
    for e in (ea, eb):
        if not e.is_relocatable:
            raise pcmap_elf.ElfError("%s is not a relocatable object"
                                     % e.path)
    fa, fb = _functions_of_object(ea), _functions_of_object(eb)
    for key in sorted(set(fa) - set(fb)):
        ck.fail("function %s is only in %s" % (key, args.obj_a))
    for key in sorted(set(fb) - set(fa)):
        ck.fail("function %s is only in %s" % (key, args.obj_b))
    ca, cb = {}, {}
    nrelocs = nbytes = 0
    for key in sorted(set(fa) & set(fb)):
        (sa, seca), (sb, secb) = fa[key], fb[key]
        if seca.name != secb.name:
            ck.fail("%s: in section %s vs %s" % (key, seca.name, secb.name))
        if sa.size != sb.size:
            ck.fail("%s: size %d vs %d" % (key, sa.size, sb.size))
            continue

        def body(elf, s, sec):
            if sec.type == pcmap_elf.SHT_NOBITS:
                return b""
            data = elf.section_data(sec)
            if s.value + s.size > len(data):
                raise pcmap_elf.ElfError("%s: %s overruns section %s"
                                         % (elf.path, s.name, sec.name))
            return data[s.value:s.value + s.size]

        ba, bb = body(ea, sa, seca), body(eb, sb, secb)
        nbytes += len(ba)
        if ba != bb:
            diff = next(i for i in range(len(ba)) if ba[i] != bb[i])
            ck.fail("%s: code differs first at offset %#x (%s vs %s)"
                    % (key, diff, ba[diff:diff + 8].hex(),
                       bb[diff:diff + 8].hex()))
        ra = _function_relocs(ea, sa, seca, ca)
        rb = _function_relocs(eb, sb, secb, cb)
        nrelocs += len(ra)
        if ra != rb:
            only_a = sorted(set(ra) - set(rb))
            only_b = sorted(set(rb) - set(ra))

            def fmt(rs):
                return "; ".join("+%#x type %d %s%+d" % (o, t, n, a or 0)
                                 for o, t, n, a in rs[:6]) or "none"
            ck.fail("%s: relocations differ: only in A: %s; only in B: %s"
                    % (key, fmt(only_a), fmt(only_b)))

    def metadata_sections(elf):
        c = collections.Counter(s.name for s in elf.sections
                                if pcmap_elf.parse_section_name(s.name))
        return ",".join("%s*%d" % (n, c[n]) for n in sorted(c)) or "none"
    return ck.finish("%d functions, %d code bytes, %d relocations identical "
                     "(metadata sections: A %s; B %s)"
                     % (len(set(fa) & set(fb)), nbytes, nrelocs,
                        metadata_sections(ea), metadata_sections(eb)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("disasm")
    d.add_argument("binary")
    d.add_argument("--objdump", default=None)
    u = sub.add_parser("upstream")
    u.add_argument("pcmap_binary")
    u.add_argument("upstream_binary")
    c = sub.add_parser("corpus")
    c.add_argument("files", nargs="+")
    c.add_argument("--objdump", default=None)
    c.add_argument("--json", default=None)
    i = sub.add_parser("invariance")
    i.add_argument("obj_a")
    i.add_argument("obj_b")
    args = ap.parse_args(argv)
    try:
        return {"disasm": cmd_disasm, "upstream": cmd_upstream,
                "corpus": cmd_corpus,
                "invariance": cmd_invariance}[args.command](args)
    except pcmap_elf.ElfError as e:
        print("check_pcmap: error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
