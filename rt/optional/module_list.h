//===- module_list.h - The modules a dump's frames lie in ------*- C++ -*-===//
//
// A JSON dump lists the modules its stack frames lie in, then names each
// frame by its module's index: the list must be complete before it is
// written, and one module listed once. ModuleList collects them in a first
// pass (collect), and answers the second (indexOf) without adding: a frame
// whose module is not listed is written as an address in no module, never
// as an index past the list.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_MODULE_LIST_H
#define PCMAP_RT_MODULE_LIST_H

#include "platform/platform.h"

#include <stdint.h>

namespace pcmap {
namespace rt {

class ModuleList {
public:
  static constexpr unsigned kMax = 256;

  /// Objects has room for kMax + 1 entries (the last one is scratch); null:
  /// no memory, no module listed.
  explicit ModuleList(LoadedObject *Objects) : Objects(Objects) {}

  /// Lists the module PC lies in, if it is in one and not listed yet.
  void collect(uintptr_t PC) { find(PC, /*MayAdd=*/true); }
  /// PC's module's index in the list, -1 if it is in no listed module.
  int indexOf(uintptr_t PC) { return find(PC, /*MayAdd=*/false); }

  unsigned size() const { return Count; }
  const LoadedObject &operator[](unsigned I) const { return Objects[I]; }

private:
  int find(uintptr_t PC, bool MayAdd);

  LoadedObject *Objects;
  unsigned Count = 0;
};

} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_MODULE_LIST_H
