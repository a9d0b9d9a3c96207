//===- module_list.cpp - The modules a dump's frames lie in ---------------===//

#include "optional/module_list.h"

namespace pcmap {
namespace rt {

int ModuleList::find(uintptr_t PC, bool MayAdd) {
  for (unsigned I = 0; I < Count; ++I)
    for (unsigned S = 0; S < Objects[I].NumSegments; ++S)
      if (PC >= Objects[I].SegmentBegin[S] && PC < Objects[I].SegmentEnd[S])
        return int(I);
  // Not in a listed module's code: it may still be in a listed module (a
  // segment that is not code: the object is the same one, found by its
  // key), or in a module not listed yet.
  if (!Objects)
    return -1;
  LoadedObject &Found = Objects[kMax];
  if (!findLoadedObject(PC, Found))
    return -1;
  for (unsigned I = 0; I < Count; ++I)
    if (Objects[I].Key == Found.Key)
      return int(I);
  if (!MayAdd || Count == kMax)
    return -1;
  Objects[Count] = Found;
  return int(Count++);
}

} // namespace rt
} // namespace pcmap
