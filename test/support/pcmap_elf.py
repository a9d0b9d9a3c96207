#!/usr/bin/env python3
"""An independent decoder for pcmap and upstream sanmd metadata.

This module deliberately shares no code with the C++ side of pcmap: it reads
64-bit little-endian ELF files with the struct module and decodes the
sections as docs/FORMAT.md describes them, so that a bug in
include/pcmap/Format.h is not silently mirrored by the tests.

Sections understood:
  pcmap_atomics<V>, pcmap_functions<V>   pcmap format (base version 1)
  sanmd_atomics<V>, sanmd_covered<V>     clang -fexperimental-sanitize-metadata
                                         (base version 2; also unsuffixed)

Command line:
  pcmap_elf.py dump FILE [--json] [--sanmd-version N]
  pcmap_elf.py symbols FILE
  pcmap_elf.py sections FILE

Exit status: 0 success, 1 invalid metadata, 2 unreadable or unsupported file.
"""

import argparse
import bisect
import json
import re
import struct
import sys

# --------------------------------------------------------------------------
# ELF constants
# --------------------------------------------------------------------------

ET_REL, ET_EXEC, ET_DYN = 1, 2, 3
PT_LOAD = 1
PF_X = 1
SHT_NULL, SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB = 0, 1, 2, 3
SHT_RELA, SHT_NOBITS, SHT_REL, SHT_DYNSYM = 4, 8, 9, 11
SHT_SYMTAB_SHNDX = 18
SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4
SHN_UNDEF, SHN_LORESERVE, SHN_ABS, SHN_COMMON, SHN_XINDEX = (
    0, 0xff00, 0xfff1, 0xfff2, 0xffff)
STT_NOTYPE, STT_OBJECT, STT_FUNC, STT_SECTION, STT_FILE = 0, 1, 2, 3, 4
STT_GNU_IFUNC = 10
STB_LOCAL, STB_GLOBAL, STB_WEAK = 0, 1, 2

_EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
_SHDR = struct.Struct("<IIQQQQIIQQ")
_PHDR = struct.Struct("<IIQQQQQQ")
_SYM = struct.Struct("<IBBHQQ")
_RELA = struct.Struct("<QQq")
_REL = struct.Struct("<QQ")

MASK64 = (1 << 64) - 1


class ElfError(Exception):
    """The file is not an ELF file this module can read."""


class FormatError(Exception):
    """A metadata section violates its format."""


# --------------------------------------------------------------------------
# ELF reader
# --------------------------------------------------------------------------


class Section:
    __slots__ = ("index", "name", "type", "flags", "addr", "offset", "size",
                 "link", "info", "align", "entsize")

    def __repr__(self):
        return "Section(%d %r addr=%#x size=%#x)" % (self.index, self.name,
                                                     self.addr, self.size)


class Segment:
    __slots__ = ("type", "flags", "offset", "vaddr", "filesz", "memsz")


class Symbol:
    __slots__ = ("index", "name", "value", "size", "type", "bind", "other",
                 "shndx", "table")

    @property
    def visibility(self):
        return self.other & 3

    @property
    def defined(self):
        return self.shndx != SHN_UNDEF

    def __repr__(self):
        return "Symbol(%r %#x+%d)" % (self.name, self.value, self.size)


class Relocation:
    __slots__ = ("offset", "type", "symbol", "addend")


class ElfFile:
    """A read-only view of a 64-bit little-endian ELF file."""

    def __init__(self, path=None, data=None):
        if data is None:
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError as e:
                raise ElfError("cannot read '%s': %s" % (path, e.strerror))
        self.path = path or "<memory>"
        self.data = data
        self._parse_header()
        self._parse_sections()
        self._parse_segments()
        self.symtab = self._read_symbols(".symtab", SHT_SYMTAB)
        self.dynsym = self._read_symbols(".dynsym", SHT_DYNSYM)
        self._func_index = {}

    # -- low-level helpers -------------------------------------------------

    def _slice(self, offset, size, what):
        if offset < 0 or size < 0 or offset + size > len(self.data):
            raise ElfError("%s: %s [%#x, %#x) lies outside the file (%#x bytes)"
                           % (self.path, what, offset, offset + size,
                              len(self.data)))
        return self.data[offset:offset + size]

    def _parse_header(self):
        if len(self.data) < 16 or self.data[:4] != b"\x7fELF":
            raise ElfError("%s: not an ELF file" % self.path)
        ei_class, ei_data = self.data[4], self.data[5]
        if ei_class != 2 or ei_data != 1:
            raise ElfError("%s: only 64-bit little-endian ELF is supported "
                           "(EI_CLASS=%d, EI_DATA=%d)"
                           % (self.path, ei_class, ei_data))
        if len(self.data) < _EHDR.size:
            raise ElfError("%s: truncated ELF header" % self.path)
        (_, self.type, self.machine, _, self.entry, self.phoff, self.shoff,
         self.flags, _, self.phentsize, self.phnum, self.shentsize,
         self.shnum, self.shstrndx) = _EHDR.unpack_from(self.data, 0)
        self.pointer_size = 8

    @property
    def is_relocatable(self):
        return self.type == ET_REL

    def _parse_sections(self):
        self.sections = []
        self.section_by_name = {}
        if self.shoff == 0:
            return
        if self.shentsize != _SHDR.size:
            raise ElfError("%s: unexpected e_shentsize %d"
                           % (self.path, self.shentsize))
        shnum, shstrndx = self.shnum, self.shstrndx
        first = _SHDR.unpack(self._slice(self.shoff, _SHDR.size,
                                         "section header 0"))
        if shnum == 0:
            shnum = first[5]  # sh_size of section 0 holds the real count
        if shstrndx == SHN_XINDEX:
            shstrndx = first[6]  # sh_link of section 0
        raw = self._slice(self.shoff, shnum * _SHDR.size, "section headers")
        for i in range(shnum):
            s = Section()
            (name, s.type, s.flags, s.addr, s.offset, s.size, s.link, s.info,
             s.align, s.entsize) = _SHDR.unpack_from(raw, i * _SHDR.size)
            s.index = i
            s.name = name  # resolved below
            self.sections.append(s)
        self.shstrndx = shstrndx
        if shstrndx >= len(self.sections):
            raise ElfError("%s: bad e_shstrndx %d" % (self.path, shstrndx))
        strtab = self.section_data(self.sections[shstrndx])
        for s in self.sections:
            s.name = _cstring(strtab, s.name, self.path, "section name")
            # The first section of a name wins; names are unique in practice.
            self.section_by_name.setdefault(s.name, s)

    def _parse_segments(self):
        self.segments = []
        if self.phoff == 0 or self.phnum == 0:
            return
        if self.phentsize != _PHDR.size:
            raise ElfError("%s: unexpected e_phentsize %d"
                           % (self.path, self.phentsize))
        raw = self._slice(self.phoff, self.phnum * _PHDR.size,
                          "program headers")
        for i in range(self.phnum):
            p = Segment()
            (p.type, p.flags, p.offset, p.vaddr, _, p.filesz, p.memsz,
             _) = _PHDR.unpack_from(raw, i * _PHDR.size)
            self.segments.append(p)

    def section_data(self, section):
        if section.type == SHT_NOBITS:
            return b""
        return self._slice(section.offset, section.size,
                           "section '%s'" % section.name
                           if isinstance(section.name, str)
                           else "section %d" % section.index)

    def section_name(self, index):
        if 0 <= index < len(self.sections):
            return self.sections[index].name
        return "<section %d>" % index

    def _read_symbols(self, name, sh_type):
        table = [s for s in self.sections if s.type == sh_type]
        if not table:
            return []
        sec = table[0]
        if sec.link >= len(self.sections):
            raise ElfError("%s: %s has a bad sh_link" % (self.path, name))
        strtab = self.section_data(self.sections[sec.link])
        data = self.section_data(sec)
        if len(data) % _SYM.size:
            raise ElfError("%s: %s size is not a multiple of %d"
                           % (self.path, name, _SYM.size))
        xindex = None
        for s in self.sections:
            if s.type == SHT_SYMTAB_SHNDX and s.link == sec.index:
                xdata = self.section_data(s)
                xindex = struct.unpack("<%dI" % (len(xdata) // 4), xdata)
        symbols = []
        for i in range(len(data) // _SYM.size):
            sym = Symbol()
            (st_name, info, sym.other, sym.shndx, sym.value,
             sym.size) = _SYM.unpack_from(data, i * _SYM.size)
            sym.index = i
            sym.name = _cstring(strtab, st_name, self.path, "symbol name")
            sym.type = info & 0xf
            sym.bind = info >> 4
            sym.table = name
            if sym.shndx == SHN_XINDEX and xindex is not None and \
                    i < len(xindex):
                sym.shndx = xindex[i]
            symbols.append(sym)
        return symbols

    # -- queries -----------------------------------------------------------

    def function_symbols(self, table=None):
        """Defined FUNC (and IFUNC) symbols of .symtab or .dynsym."""
        syms = self.symtab if table in (None, ".symtab") else self.dynsym
        if table is None and not syms:
            syms = self.dynsym
        return [s for s in syms
                if s.type in (STT_FUNC, STT_GNU_IFUNC) and s.defined
                and s.shndx < SHN_LORESERVE]

    def executable_ranges(self):
        """[start, end) of every executable PT_LOAD segment."""
        return sorted((p.vaddr, p.vaddr + p.memsz) for p in self.segments
                      if p.type == PT_LOAD and p.flags & PF_X)

    def _index(self, table):
        idx = self._func_index.get(table)
        if idx is None:
            syms = sorted((s for s in (self.symtab if table == ".symtab"
                                       else self.dynsym)
                           if s.type in (STT_FUNC, STT_GNU_IFUNC)
                           and s.defined and s.shndx < SHN_LORESERVE
                           and s.size > 0),
                          key=lambda s: s.value)
            starts = [s.value for s in syms]
            maxsize = max((s.size for s in syms), default=0)
            idx = (syms, starts, maxsize)
            self._func_index[table] = idx
        return idx

    def function_at(self, pc):
        """The FUNC symbol whose [value, value+size) holds pc, or None.
        .symtab is preferred; .dynsym is the fallback."""
        for table in (".symtab", ".dynsym"):
            syms, starts, maxsize = self._index(table)
            i = bisect.bisect_right(starts, pc)
            best = None
            while i > 0:
                i -= 1
                s = syms[i]
                if s.value + maxsize <= pc:
                    break
                if s.value <= pc < s.value + s.size:
                    key = (-s.value, 0 if s.bind != STB_LOCAL else 1,
                           len(s.name), s.name)
                    if best is None or key < best[0]:
                        best = (key, s)
            if best:
                return best[1]
        return None

    def symbols_at(self, addr):
        """Every defined FUNC symbol (either table) whose value is addr."""
        out = []
        for table in (".symtab", ".dynsym"):
            syms, starts, _ = self._index(table)
            i = bisect.bisect_left(starts, addr)
            while i < len(syms) and syms[i].value == addr:
                out.append(syms[i])
                i += 1
        # Symbols of size 0 are not in the index.
        for s in self.symtab + self.dynsym:
            if s.type in (STT_FUNC, STT_GNU_IFUNC) and s.defined and \
                    s.size == 0 and s.value == addr and \
                    s.shndx < SHN_LORESERVE:
                out.append(s)
        return out

    def describe(self, pc):
        s = self.function_at(pc)
        if s is None:
            return "?"
        return "%s+%#x" % (s.name, pc - s.value)

    def relocations(self, target_section):
        """Relocations that apply to target_section (SHT_RELA or SHT_REL
        sections whose sh_info is its index), with resolved symbols."""
        out = []
        for rs in self.sections:
            if rs.type not in (SHT_RELA, SHT_REL) or \
                    rs.info != target_section.index:
                continue
            if rs.link >= len(self.sections):
                raise ElfError("%s: %s has a bad sh_link"
                               % (self.path, rs.name))
            symtab = self.symtab if self.sections[rs.link].type == \
                SHT_SYMTAB else self.dynsym
            data = self.section_data(rs)
            entry = _RELA if rs.type == SHT_RELA else _REL
            if len(data) % entry.size:
                raise ElfError("%s: %s size is not a multiple of %d"
                               % (self.path, rs.name, entry.size))
            for i in range(len(data) // entry.size):
                r = Relocation()
                if rs.type == SHT_RELA:
                    r.offset, info, r.addend = entry.unpack_from(
                        data, i * entry.size)
                else:
                    r.offset, info = entry.unpack_from(data, i * entry.size)
                    r.addend = None
                r.type = info & 0xffffffff
                symi = info >> 32
                if symi >= len(symtab) and symi != 0:
                    raise ElfError("%s: %s: relocation %d names symbol %d "
                                   "of %d" % (self.path, rs.name, i, symi,
                                              len(symtab)))
                r.symbol = symtab[symi] if symi else None
                out.append(r)
        return out

    def symbol_display_name(self, sym):
        """A symbol's name; a section symbol is named after its section."""
        if sym is None:
            return "<none>"
        if sym.type == STT_SECTION:
            return self.section_name(sym.shndx)
        return sym.name


def _cstring(table, offset, path, what):
    if offset >= len(table):
        if offset == 0:
            return ""
        raise ElfError("%s: %s offset %d outside its string table"
                       % (path, what, offset))
    end = table.find(b"\0", offset)
    if end < 0:
        raise ElfError("%s: unterminated %s" % (path, what))
    return table[offset:end].decode("utf-8", "replace")


# --------------------------------------------------------------------------
# Metadata formats
# --------------------------------------------------------------------------

PCMAP_VERSION_BASE = 1
SANMD_VERSION_BASE = 2
VERSION_PTR_SIZE_REL = 1 << 16
VERSION_BASE_MASK = 0xffff

KINDS = ["load", "store", "rmw", "cmpxchg", "fence"]
# Orders 0 and 3 are never emitted; FORMAT.md says to show them as unknown.
ORDERS = ["unknown", "unordered", "relaxed", "unknown", "acquire",
          "release", "acq_rel", "seq_cst"]
RMW_OPS = ["xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min",
           "umax", "umin", "fadd", "fsub", "fmax", "fmin", "uinc_wrap",
           "udec_wrap", "usub_cond", "usub_sat", "fmaximum", "fminimum"]
RMW_OTHER = 63
MAX_DESCRIPTOR = (1 << 21) - 1
FEATURE_ATOMICS = 1
FEATURE_HAS_ATOMICS = 2
FEATURE_FRAGMENTED = 8
SANMD_FEATURES = {0: "atomics", 1: "uar", 2: "uar-has-size"}
SANMD_UAR_HAS_SIZE = 1 << 2

_SECTION_RE = re.compile(r"^(pcmap_atomics|pcmap_functions|"
                         r"sanmd_atomics|sanmd_covered)([0-9]*)$")


def read_uleb128(data, pos, end, what):
    """Reads a ULEB128 value at data[pos:end]; returns (value, next_pos)."""
    result = 0
    shift = 0
    for n in range(10):
        if pos + n >= end:
            raise FormatError("truncated ULEB128 %s at offset %#x"
                              % (what, pos))
        byte = data[pos + n]
        part = byte & 0x7f
        if shift == 63 and part > 1:
            raise FormatError("ULEB128 %s at offset %#x does not fit in 64 "
                              "bits" % (what, pos))
        result |= part << shift
        if not byte & 0x80:
            return result, pos + n + 1
        shift += 7
    raise FormatError("ULEB128 %s at offset %#x is longer than 10 bytes"
                      % (what, pos))


class Descriptor:
    """A decoded pcmap atomic descriptor."""

    def __init__(self, value):
        if value > MAX_DESCRIPTOR:
            raise FormatError("descriptor %#x is 2^21 or more" % value)
        kind = value & 7
        if kind >= len(KINDS):
            raise FormatError("descriptor %#x has invalid kind %d"
                              % (value, kind))
        self.value = value
        self.kind = KINDS[kind]
        self.size_log2 = (value >> 3) & 7
        self.order = ORDERS[(value >> 6) & 7]
        self.volatile = bool(value >> 9 & 1)
        self.from_asm = bool(value >> 10 & 1)
        # Bits 20:17 are reserved (zero in version 1); readers ignore them.
        # They are kept for --json.
        self.reserved = value & (0xf << 17)
        self.op = self.failure_order = None
        self.weak = False
        if self.kind == "rmw":
            op = (value >> 11) & 0x3f
            if op < len(RMW_OPS):
                self.op = RMW_OPS[op]
            elif op == RMW_OTHER:
                self.op = "other"
            else:
                self.op = "unknown%d" % op
        elif self.kind == "cmpxchg":
            self.failure_order = ORDERS[(value >> 11) & 7]
            self.weak = bool(value >> 14 & 1)

    @property
    def size(self):
        """Access size in bytes, or None for "larger than 64"."""
        return 1 << self.size_log2 if self.size_log2 <= 6 else None

    def text(self):
        parts = ["kind=" + self.kind]
        if self.kind != "fence":
            parts.append("size=%s" % (self.size if self.size is not None
                                      else "large"))
        parts.append("order=" + self.order)
        if self.kind == "rmw":
            parts.append("op=" + self.op)
        if self.kind == "cmpxchg":
            parts.append("failure=" + self.failure_order)
            if self.weak:
                parts.append("weak")
        if self.volatile:
            parts.append("volatile")
        if self.from_asm:
            parts.append("asm")
        return " ".join(parts)

    def to_json(self):
        d = {"value": self.value, "kind": self.kind, "size": self.size,
             "order": self.order, "volatile": self.volatile,
             "from_asm": self.from_asm,
             "reserved_bits": self.reserved}
        if self.kind == "rmw":
            d["op"] = self.op
        if self.kind == "cmpxchg":
            d["failure_order"] = self.failure_order
            d["weak"] = self.weak
        return d


class FunctionEntry:
    def __init__(self, pc, size, features, field, section):
        self.pc, self.size, self.features = pc, size, features
        self.field, self.section = field, section
        self.stack_args = None  # sanmd only
        self.name = None


class Fragment:
    """A fragment of a split function after its first: its symbol's range,
    and the function entry it belongs to."""

    def __init__(self, symbol, entry):
        self.pc, self.size, self.name = symbol.value, symbol.size, symbol.name
        self.entry = entry
        self.features = entry.features


def fragment_base(name):
    """The function name of a fragment symbol (F.__part.N, F.cold, F.eh),
    or None (docs/FORMAT.md, "Fragments")."""
    m = re.match(r"^(.+)(\.__part\.[0-9]+|\.cold|\.eh)$", name)
    return m.group(1) if m else None


def find_fragments(elf, functions):
    """The fragments of the entries that declare FEATURE_FRAGMENTED: local
    symbols named after a function symbol at the entry's PC, in the same
    file's local symbols, else a global one; an ambiguous name is left out
    (as the runtime does, rt/core/fragments.h)."""
    entries = {e.pc: e for e in functions if e.features & FEATURE_FRAGMENTED}
    if not entries:
        return []
    group = None
    parts, local_funcs, global_funcs = [], {}, {}
    for s in elf.symtab:
        if s.type == STT_FILE:
            group = s.index
            continue
        if not s.defined or s.shndx >= SHN_LORESERVE:
            continue
        if s.type == STT_FUNC:
            if s.bind == STB_LOCAL:
                local_funcs.setdefault((group, s.name), set()).add(s.value)
            else:
                global_funcs.setdefault(s.name, set()).add(s.value)
        if s.bind == STB_LOCAL and s.type in (STT_NOTYPE, STT_FUNC) and \
                s.size and fragment_base(s.name):
            parts.append((group, s))
    out = []
    for group, s in parts:
        base = fragment_base(s.name)
        starts = local_funcs.get((group, base)) or global_funcs.get(base)
        if not starts or len(starts) != 1:
            continue
        entry = entries.get(next(iter(starts)))
        if entry is not None:
            out.append(Fragment(s, entry))
    return out


class AtomicRecord:
    def __init__(self, pcs, fields, descriptor, section):
        self.pcs, self.fields = pcs, fields
        self.descriptor = descriptor  # Descriptor, or None for sanmd
        self.section = section


class Metadata:
    """Everything decoded from one ELF file."""

    def __init__(self):
        self.functions = []        # pcmap FunctionEntry
        self.records = []          # pcmap AtomicRecord
        self.sanmd_functions = []  # sanmd FunctionEntry
        self.sanmd_atomics = []    # sanmd absolute PCs
        self.sections = []         # (name, kind, version, bytes)
        self.errors = []           # messages; their sections are not used

    @property
    def atomic_pcs(self):
        return sorted(pc for r in self.records for pc in r.pcs)

    def bytes_of(self, base):
        return sum(size for name, kind, version, size in self.sections
                   if kind == base)


def parse_section_name(name):
    """Returns (kind, version or None) for a metadata section name, where
    kind is e.g. 'pcmap_atomics'; None for other sections."""
    m = _SECTION_RE.match(name)
    if not m:
        return None
    return m.group(1), (int(m.group(2)) if m.group(2) else None)


def pc_width(version, pointer_size):
    return pointer_size if version & VERSION_PTR_SIZE_REL else 4


class _Reader:
    """Bounds-checked reading of one metadata section."""

    def __init__(self, elf, section, version):
        self.elf = elf
        self.section = section
        self.data = elf.section_data(section)
        self.end = len(self.data)
        self.addr = section.addr
        self.width = pc_width(version, elf.pointer_size)
        self.ranges = elf.executable_ranges()

    def read_pc(self, pos, what):
        """Returns (raw value, absolute PC, field address, next pos)."""
        if pos + self.width > self.end:
            raise FormatError("truncated %s at offset %#x (%d of %d bytes)"
                              % (what, pos, self.end - pos, self.width))
        raw = int.from_bytes(self.data[pos:pos + self.width], "little",
                             signed=True)
        field = self.addr + pos
        return raw, (field + raw) & MASK64, field, pos + self.width

    def uleb(self, pos, what):
        return read_uleb128(self.data, pos, self.end, what)

    def check_code(self, pc, size, pos, what):
        for lo, hi in self.ranges:
            if lo <= pc < hi:
                if pc + size > hi:
                    raise FormatError(
                        "%s at offset %#x: [%#x, %#x) overruns the executable "
                        "segment [%#x, %#x)" % (what, pos, pc, pc + size, lo,
                                                hi))
                return
        raise FormatError("%s at offset %#x: PC %#x is in no executable "
                          "segment" % (what, pos, pc))


def _decode_pcmap_atomics(r, name):
    records = []
    pcs, fields = [], []
    pos = 0
    while pos < r.end:
        start = pos
        raw, pc, field, pos = r.read_pc(pos, "relative PC")
        if raw != 0:
            r.check_code(pc, 0, start, "atomic PC")
            pcs.append(pc)
            fields.append(field)
            continue
        if not pcs:
            raise FormatError("record at offset %#x has no PC before its "
                              "zero word" % start)
        value, pos = r.uleb(pos, "descriptor")
        try:
            desc = Descriptor(value)
        except FormatError as e:
            raise FormatError("offset %#x: %s" % (start + r.width, e))
        records.append(AtomicRecord(pcs, fields, desc, name))
        pcs, fields = [], []
    if pcs:
        raise FormatError("section ends inside a record: %d PC(s) without "
                          "zero word and descriptor" % len(pcs))
    return records


def _decode_function_entries(r, name, sanmd):
    entries = []
    pos = 0
    while pos < r.end:
        start = pos
        raw, pc, field, pos = r.read_pc(pos, "function PC")
        if raw == 0:
            raise FormatError("function entry at offset %#x has a zero PC"
                              % start)
        size, pos = r.uleb(pos, "function size")
        features, pos = r.uleb(pos, "function features")
        e = FunctionEntry(pc, size, features, field, name)
        if sanmd and features & SANMD_UAR_HAS_SIZE:
            e.stack_args, pos = r.uleb(pos, "stack args size")
        r.check_code(pc, size, start, "function")
        entries.append(e)
    return entries


def _decode_sanmd_atomics(r):
    pcs = []
    pos = 0
    while pos < r.end:
        start = pos
        raw, pc, field, pos = r.read_pc(pos, "relative PC")
        if raw == 0:
            raise FormatError("zero relative PC at offset %#x" % start)
        r.check_code(pc, 0, start, "atomic PC")
        pcs.append(pc)
    return pcs


def decode(elf, sanmd_unsuffixed_version=SANMD_VERSION_BASE):
    """Decodes every pcmap and sanmd section of a linked ELF file. Errors of
    one section are collected in Metadata.errors; that section is skipped
    as a whole."""
    if elf.is_relocatable:
        raise ElfError("%s: relocatable object (ET_REL): metadata PCs are "
                       "only known after linking; link it first" % elf.path)
    md = Metadata()
    for sec in elf.sections:
        parsed = parse_section_name(sec.name)
        if not parsed:
            continue
        kind, version = parsed
        if version is None:
            if kind.startswith("pcmap_"):
                md.errors.append("%s: section '%s' has no version suffix"
                                 % (elf.path, sec.name))
                continue
            version = sanmd_unsuffixed_version
        base = version & VERSION_BASE_MASK
        want = PCMAP_VERSION_BASE if kind.startswith("pcmap_") \
            else SANMD_VERSION_BASE
        if base != want:
            md.errors.append("%s: section '%s': unknown base version %d "
                             "(expected %d)" % (elf.path, sec.name, base,
                                                want))
            continue
        if version & ~(VERSION_BASE_MASK | VERSION_PTR_SIZE_REL):
            md.errors.append("%s: section '%s': unknown version flags %#x"
                             % (elf.path, sec.name,
                                version & ~VERSION_BASE_MASK))
            continue
        if sec.type == SHT_NOBITS or not sec.flags & SHF_ALLOC or \
                sec.addr == 0:
            md.errors.append("%s: section '%s' is not allocated or has no "
                             "address" % (elf.path, sec.name))
            continue
        md.sections.append((sec.name, kind, version, sec.size))
        try:
            r = _Reader(elf, sec, version)
            if kind == "pcmap_atomics":
                recs = _decode_pcmap_atomics(r, sec.name)
                md.records.extend(recs)
            elif kind == "pcmap_functions":
                md.functions.extend(_decode_function_entries(r, sec.name,
                                                             False))
            elif kind == "sanmd_atomics":
                md.sanmd_atomics.extend(_decode_sanmd_atomics(r))
            else:
                md.sanmd_functions.extend(_decode_function_entries(
                    r, sec.name, True))
        except (FormatError, ElfError) as e:
            md.errors.append("%s: section '%s': %s" % (elf.path, sec.name, e))
    for e in md.functions + md.sanmd_functions:
        s = elf.function_at(e.pc)
        e.name = s.name if s is not None and s.value == e.pc else None
    return md


def load(path, sanmd_unsuffixed_version=SANMD_VERSION_BASE):
    """Returns (ElfFile, Metadata) for a linked executable or DSO."""
    elf = ElfFile(path)
    return elf, decode(elf, sanmd_unsuffixed_version)


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------


def feature_text(features):
    if features == 0:
        return "none"
    parts = []
    if features & FEATURE_ATOMICS:
        parts.append("atomics")
    if features & FEATURE_HAS_ATOMICS:
        parts.append("has-atomics")
    if features & FEATURE_FRAGMENTED:
        parts.append("fragmented")
    known = FEATURE_ATOMICS | FEATURE_HAS_ATOMICS | FEATURE_FRAGMENTED
    if features & ~known:
        parts.append("%#x" % (features & ~known))
    return "|".join(parts)


def dump_lines(elf, md):
    lines = []
    items = []
    for e in md.functions:
        items.append((e.pc, 0, "function %#x size %d features %s name %s"
                      % (e.pc, e.size, feature_text(e.features),
                         e.name or "?")))
    for r in md.records:
        text = r.descriptor.text()
        for pc in r.pcs:
            items.append((pc, 1, "atomic %#x %s %s"
                          % (pc, elf.describe(pc), text)))
    items.sort()
    lines.extend(t for _, _, t in items)
    items = []
    for e in md.sanmd_functions:
        t = "sanmd-function %#x size %d features %#x name %s" % (
            e.pc, e.size, e.features, e.name or "?")
        if e.stack_args is not None:
            t += " stack-args %d" % e.stack_args
        items.append((e.pc, 0, t))
    for pc in md.sanmd_atomics:
        items.append((pc, 1, "sanmd-atomic %#x %s" % (pc, elf.describe(pc))))
    items.sort()
    lines.extend(t for _, _, t in items)
    if md.sanmd_functions or md.sanmd_atomics or \
            md.bytes_of("sanmd_atomics") or md.bytes_of("sanmd_covered"):
        lines.append("sanmd-summary: functions=%d atomic-pcs=%d "
                     "atomics-bytes=%d covered-bytes=%d"
                     % (len(md.sanmd_functions), len(md.sanmd_atomics),
                        md.bytes_of("sanmd_atomics"),
                        md.bytes_of("sanmd_covered")))
    lines.append("summary: functions=%d atomic-pcs=%d atomic-records=%d "
                 "atomics-bytes=%d functions-bytes=%d"
                 % (len(md.functions), len(md.atomic_pcs), len(md.records),
                    md.bytes_of("pcmap_atomics"),
                    md.bytes_of("pcmap_functions")))
    return lines


def dump_json(elf, md):
    def fn(e):
        d = {"pc": e.pc, "size": e.size, "features": e.features,
             "name": e.name, "section": e.section}
        if e.stack_args is not None:
            d["stack_args"] = e.stack_args
        return d
    out = {
        "file": elf.path,
        "sections": [{"name": n, "kind": k, "version": v, "bytes": b}
                     for n, k, v, b in md.sections],
        "functions": sorted((fn(e) for e in md.functions),
                            key=lambda d: d["pc"]),
        "atomic_records": [{"section": r.section, "pcs": r.pcs,
                            "where": [elf.describe(pc) for pc in r.pcs],
                            "descriptor": r.descriptor.to_json()}
                           for r in md.records],
        "atomics": sorted(({"pc": pc, "where": elf.describe(pc),
                            "descriptor": r.descriptor.to_json()}
                           for r in md.records for pc in r.pcs),
                          key=lambda d: d["pc"]),
        "sanmd_functions": sorted((fn(e) for e in md.sanmd_functions),
                                  key=lambda d: d["pc"]),
        "sanmd_atomics": [{"pc": pc, "where": elf.describe(pc)}
                          for pc in sorted(md.sanmd_atomics)],
        "summary": {
            "functions": len(md.functions),
            "atomic_pcs": len(md.atomic_pcs),
            "atomic_records": len(md.records),
            "atomics_bytes": md.bytes_of("pcmap_atomics"),
            "functions_bytes": md.bytes_of("pcmap_functions"),
            "sanmd_functions": len(md.sanmd_functions),
            "sanmd_atomic_pcs": len(md.sanmd_atomics),
            "sanmd_atomics_bytes": md.bytes_of("sanmd_atomics"),
            "sanmd_covered_bytes": md.bytes_of("sanmd_covered"),
        },
        "errors": md.errors,
    }
    return json.dumps(out, indent=1, sort_keys=True)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Decode pcmap and sanmd metadata of a linked ELF file.")
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump", help="print every function entry and atomic "
                       "PC, sorted by address")
    d.add_argument("file")
    d.add_argument("--json", action="store_true")
    d.add_argument("--sanmd-version", type=int, default=SANMD_VERSION_BASE,
                   help="section version assumed for unsuffixed sanmd_* "
                   "sections (default %(default)s)")
    s = sub.add_parser("symbols", help="list the FUNC symbols")
    s.add_argument("file")
    s = sub.add_parser("sections", help="list the section headers")
    s.add_argument("file")
    args = ap.parse_args(argv)

    try:
        elf = ElfFile(args.file)
        if args.command == "symbols":
            for sym in sorted(elf.function_symbols(".symtab") +
                              elf.function_symbols(".dynsym"),
                              key=lambda s: (s.value, s.table, s.name)):
                print("%s %#x size %d %s" % (sym.table, sym.value, sym.size,
                                             sym.name))
            return 0
        if args.command == "sections":
            for sec in elf.sections:
                print("[%2d] %-24s type %d flags %#x addr %#x size %#x"
                      % (sec.index, sec.name, sec.type, sec.flags, sec.addr,
                         sec.size))
            return 0
        md = decode(elf, args.sanmd_version)
    except ElfError as e:
        print("pcmap_elf: error: %s" % e, file=sys.stderr)
        return 2
    if args.json:
        print(dump_json(elf, md))
    else:
        for line in dump_lines(elf, md):
            print(line)
    sys.stdout.flush()  # so that 2>&1 shows the table, then the errors
    for err in md.errors:
        print("pcmap_elf: error: %s" % err, file=sys.stderr)
    return 1 if md.errors else 0


if __name__ == "__main__":
    sys.exit(main())
