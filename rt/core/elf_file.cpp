//===- elf_file.cpp - Reading a loaded object's ELF file ------------------===//

#include "core/elf_file.h"

#include "platform/platform.h"

#include <elf.h>
#include <string.h>

namespace pcmap {
namespace rt {

bool readElfSections(int Fd, ElfFileSections &Out) {
  memset(&Out, 0, sizeof(Out));
  ElfW(Ehdr) E;
  if (!readFileAt(Fd, &E, sizeof(E), 0) || memcmp(E.e_ident, ELFMAG, SELFMAG) ||
      E.e_ident[EI_CLASS] != ELFCLASS64 ||
      E.e_shentsize != sizeof(ElfW(Shdr)) || !E.e_shnum ||
      E.e_shstrndx >= E.e_shnum)
    return false;
  ArenaBlock ShdrBuf, NameBuf;
  if (!ShdrBuf.allocate(uint64_t(E.e_shnum) * sizeof(ElfW(Shdr))))
    return false;
  auto *Sh = ShdrBuf.data<ElfW(Shdr)>();
  if (!readFileAt(Fd, Sh, E.e_shnum * sizeof(ElfW(Shdr)), E.e_shoff))
    return false;
  const ElfW(Shdr) &StrSh = Sh[E.e_shstrndx];
  if (StrSh.sh_size > (1u << 24) || !NameBuf.allocate(StrSh.sh_size + 1))
    return false;
  auto *Names = NameBuf.data<char>();
  if (!readFileAt(Fd, Names, StrSh.sh_size, StrSh.sh_offset))
    return false;
  Names[StrSh.sh_size] = '\0';
  for (unsigned I = 0; I < E.e_shnum; ++I) {
    if (Sh[I].sh_type == SHT_SYMTAB) {
      Out.SymTab = Sh[I];
      if (Sh[I].sh_link < E.e_shnum && Sh[Sh[I].sh_link].sh_type == SHT_STRTAB)
        Out.SymTabStrings = Sh[Sh[I].sh_link];
    }
    if (Sh[I].sh_type == SHT_DYNSYM)
      Out.DynSym = Sh[I];
    if (Sh[I].sh_name < StrSh.sh_size &&
        !strcmp(Names + Sh[I].sh_name, ".llvm_stackmaps") &&
        (Sh[I].sh_flags & SHF_ALLOC) && Sh[I].sh_type != SHT_NOBITS)
      Out.StackMaps = Sh[I];
  }
  return true;
}

bool forEachSymbolChunk(int Fd, const ElfW(Shdr) & Table,
                        bool (*Visit)(uint64_t First, const ElfW(Sym) * Syms,
                                      size_t N, void *Data),
                        void *Data) {
  constexpr uint64_t kChunk = 128;
  ElfW(Sym) Chunk[kChunk];
  uint64_t Count = Table.sh_size / sizeof(ElfW(Sym));
  for (uint64_t Base = 0; Base < Count; Base += kChunk) {
    uint64_t K = Count - Base < kChunk ? Count - Base : kChunk;
    if (!readFileAt(Fd, Chunk, K * sizeof(ElfW(Sym)),
                    Table.sh_offset + Base * sizeof(ElfW(Sym))))
      return false;
    if (!Visit(Base, Chunk, size_t(K), Data))
      return true;
  }
  return true;
}

} // namespace rt
} // namespace pcmap
