//===- fragments.h - The fragments of split functions -----------*- C++ -*-===//
//
// With -fbasic-block-sections=all|list= or -fsplit-machine-functions the
// code generator puts parts of a function into sections of their own, which
// the linker places anywhere; the function's entry in pcmap_functions
// covers its first fragment only. The other fragments have local symbols,
// "<function>.__part.<N>", "<function>.cold" or "<function>.eh", in the
// object's .symtab (format::fragmentBaseLength). When a module has entries
// that say their function may be split (kFeatureFragmented), registration
// reads its file's symbol table once, joins each fragment symbol to the
// function symbol of the same name (in the same file's local symbols, else
// a global one; an ambiguous name is left out), and gives every fragment a
// function record of its own: the fragment's start and size, its
// function's entry (FunctionRecord::Entry) and declared features. Whether
// a function has its atomics is decided over all of its fragments
// (addFragments). A module without .symtab (stripped) keeps its fragments
// unknown. Writers only.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_FRAGMENTS_H
#define PCMAP_RT_FRAGMENTS_H

#include "core/arena.h"
#include "core/decode.h"

#include <stdint.h>

namespace pcmap {
namespace rt {

/// A fragment of a function, as offsets from the module's TextLo.
struct Fragment {
  uint32_t Start, Size;
  uint32_t Entry; // its function's first fragment
};

/// The fragments of a module's functions, from its file's symbol table.
struct ModuleFragments {
  ArenaOffset Array = 0; // Fragment[Count], sorted by Entry
  uint32_t Count = 0;
  bool Read = false; // the file was looked at (once per module)
};

/// Reads the fragment symbols of the module loaded from Path at Bias, whose
/// code is Code. Says so once (verbosity=1) when the file has no symbol
/// table. Out.Read is set whatever happens.
void readFragments(const char *Path, uintptr_t Bias, const CodeRanges &Code,
                   ModuleFragments &Out);
void freeFragments(ModuleFragments &F);

/// Whether a decoded functions section has an entry that may be split.
bool hasFragmentedFunctions(const DecodedFunctions &F);

/// Out becomes the records of Section and those of the fragments of its
/// functions that may be split, sorted by start (a fragment that overlaps
/// another record is left out). A function that declares atomics
/// (kFeatureHasAtomics) has them if any of its fragments holds one of
/// Atomics: then its fragments without atomics no longer declare
/// kFeatureHasAtomics, so that buildModuleTable finds every fragment
/// complete; if none holds one, every fragment stays incomplete. False
/// (and Out empty) when no fragment belongs to Section or out of memory.
bool addFragments(const DecodedFunctions &Section, const ModuleFragments &F,
                  const DecodedAtomics *Atomics, unsigned NumAtomicSections,
                  DecodedFunctions &Out);

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_FRAGMENTS_H
