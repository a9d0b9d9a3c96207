//===- platform/hooks.cpp - Events announced to the layers above ----------===//

#include "platform/hooks.h"
#include "platform/platform.h"

// The bounds the linker defines for the section; weak, so that a runtime with
// no subscriber at all still links.
extern "C" {
extern const pcmap::rt::Subscriber __start_pcmap_subscribers[]
    __attribute__((weak, visibility("hidden")));
extern const pcmap::rt::Subscriber __stop_pcmap_subscribers[]
    __attribute__((weak, visibility("hidden")));
}

namespace pcmap {
namespace rt {

PCMAP_STARTUP_CODE void announce(Event E) {
  const Subscriber *Begin = __start_pcmap_subscribers;
  const Subscriber *End = __stop_pcmap_subscribers;
  if (!Begin || !End)
    return;
  // A handful of subscribers: one pass per order, in the order of the link
  // within one, with no sorting and nothing written.
  unsigned Next = 0;
  for (;;) {
    unsigned Order = Next, Later = ~0u;
    for (const Subscriber *S = Begin; S < End; ++S) {
      if (S->Order == Order && S->On[unsigned(E)])
        S->On[unsigned(E)]();
      else if (S->Order > Order && S->Order < Later)
        Later = S->Order;
    }
    if (Later == ~0u)
      return;
    Next = Later;
  }
}

} // namespace rt
} // namespace pcmap
