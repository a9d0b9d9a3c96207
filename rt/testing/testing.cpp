//===- testing/testing.cpp - Entry points for tests and benchmarks --------===//
//
// Linked into the unit tests and the benchmarks only (pcmap_rt_testing):
// nothing here is installed, shipped or exported by the runtime. Fake
// modules stand for loaded objects through the registry's object locator;
// the query-path probes call the core's own.
//
//===----------------------------------------------------------------------===//

#include "pcmap_testing.h"

#include "core/log.h"
#include "core/options.h"
#include "core/registry.h"
#include "platform/platform.h"

#include <string.h>

namespace pcmap {
namespace rt {
namespace {

struct FakeModule {
  const void *SectionStart, *SectionEnd;
  uintptr_t TextStart, TextEnd;
  char Name[128];
};
constexpr unsigned kMaxFakeModules = 64;
FakeModule FakeModules[kMaxFakeModules];
unsigned NumFakeModules;

/// The registry's object locator (called with the writer lock held).
bool locateFakeModule(const void *Address, LoadedObject &Out) {
  for (unsigned I = 0; I < NumFakeModules; ++I) {
    const FakeModule &F = FakeModules[I];
    if (Address < F.SectionStart || Address >= F.SectionEnd)
      continue;
    Out.Bias = 0;
    Out.Key = F.TextStart;
    Out.NumSegments = 1;
    Out.SegmentBegin[0] = F.TextStart;
    Out.SegmentEnd[0] = F.TextEnd;
    strncpy(Out.Path, F.Name, sizeof(Out.Path) - 1);
    Out.Path[sizeof(Out.Path) - 1] = '\0';
    return true;
  }
  return false;
}

} // namespace
} // namespace rt
} // namespace pcmap

using namespace pcmap::rt;

extern "C" {

int __pcmap_testing_add_fake_module(const void *SectionStart,
                                    const void *SectionEnd, uintptr_t TextStart,
                                    uintptr_t TextEnd, const char *Name) {
  lockWriters();
  bool Added = NumFakeModules < kMaxFakeModules;
  if (Added) {
    FakeModule &F = FakeModules[NumFakeModules++];
    F = {SectionStart, SectionEnd, TextStart, TextEnd, {}};
    strncpy(F.Name, Name ? Name : "", sizeof(F.Name) - 1);
  }
  unlockWriters();
  setObjectLocatorForTesting(locateFakeModule);
  return Added;
}

void __pcmap_testing_remove_fake_module(const void *SectionStart) {
  lockWriters();
  for (unsigned I = 0; I < NumFakeModules; ++I)
    if (FakeModules[I].SectionStart == SectionStart) {
      FakeModules[I] = FakeModules[--NumFakeModules];
      break;
    }
  unlockWriters();
}

void __pcmap_testing_set_verbosity(int Level) {
  Verbosity = Flags.verbosity = Level;
}

void __pcmap_testing_defer_tables() { deferTablesForTesting(); }

int __pcmap_testing_is_atomic_indexed(uintptr_t PC) {
  return isAtomicIndexedAt(PC);
}
int __pcmap_testing_function_mapped(uintptr_t PC) {
  return functionMappedAt(PC);
}
int __pcmap_testing_has_answer_map(uintptr_t PC) { return hasAnswerMapAt(PC); }
int __pcmap_testing_stretch_described(uintptr_t PC) {
  return stretchDescribedAt(PC);
}

} // extern "C"
