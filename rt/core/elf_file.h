//===- elf_file.h - Reading a loaded object's ELF file ----------*- C++ -*-===//
//
// What the runtime reads of an object's file rather than of its memory: the
// section headers and the symbol table (.symtab is not loaded). Writers
// only (registration, stack-map discovery): the buffers are arena blocks
// (ArenaBlock, arena.h), the reads system calls (platform.h).
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_ELF_FILE_H
#define PCMAP_RT_ELF_FILE_H

#include "core/arena.h"

#include <link.h>
#include <stddef.h>
#include <stdint.h>

namespace pcmap {
namespace rt {

/// The sections of an ELF file the runtime reads; sh_size 0: absent.
struct ElfFileSections {
  ElfW(Shdr) StackMaps;     // .llvm_stackmaps, allocated
  ElfW(Shdr) SymTab;        // .symtab
  ElfW(Shdr) SymTabStrings; // its string table
  ElfW(Shdr) DynSym;        // .dynsym
};

/// Reads the section headers of the 64-bit ELF file open as Fd. False if it
/// is not one or its headers cannot be read.
bool readElfSections(int Fd, ElfFileSections &Out);

/// Calls Visit on the symbols of the symbol table Table in chunks (index of
/// the chunk's first symbol, the symbols, their number) until it returns
/// false. False if the file cannot be read.
bool forEachSymbolChunk(int Fd, const ElfW(Shdr) & Table,
                        bool (*Visit)(uint64_t First, const ElfW(Sym) * Syms,
                                      size_t N, void *Data),
                        void *Data);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_ELF_FILE_H
