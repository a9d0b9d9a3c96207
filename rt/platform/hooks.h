//===- platform/hooks.h - Events announced to the layers above -*- C++ -*-===//
//
// The one way up. A lower layer announces an event (the runtime is
// initialised, a thread starts or ends, a child is forked, objects are loaded
// or unloaded, the process exits or dies of a signal); the layers above
// subscribe to the events they need. A subscription is data placed in the
// section pcmap_subscribers at link time (PCMAP_SUBSCRIBE), so that a layer
// subscribes by being linked, before any constructor has run (a thread may
// start, or a module register, before the runtime's constructors), and a
// layer left out of the link is simply absent. Subscribers are called in the
// order of their Order field, then of the link.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_RT_HOOKS_H
#define PCMAP_RT_HOOKS_H

namespace pcmap {
namespace rt {

enum class Event : unsigned {
  /// Once, when the core has read the options and has its arena; with the
  /// writer lock held.
  Initialize,
  /// First thing in every thread pthread_create starts (the runtime's own
  /// service threads excepted), before its start routine; possibly before
  /// Initialize.
  ThreadStart,
  /// In such a thread when it ends.
  ThreadExit,
  /// In the thread that calls pthread_create, before the C library starts
  /// the new thread (the interceptor announces every call, with or without
  /// a sanitizer; possibly before Initialize). The C library takes the
  /// process for a multi-threaded one from now on: a layer that needs a
  /// service thread of its own only while the program has threads starts
  /// it here, and a single-threaded program stays single-threaded.
  ThreadCreate,
  /// In the child after fork(), once the writer lock is free again. The
  /// child has one thread, the one that forked; its timers are gone.
  ForkChild,
  /// After dlopen or dlclose changed the loaded objects.
  ObjectsChanged,
  /// At exit (an atexit handler registered at Initialize).
  Exit,
  /// A signal is about to end the process by its default action (the fault
  /// reporter announces it, in a signal handler): async-signal-safe
  /// subscribers only.
  Fatal,
  NumEvents
};

/// A layer's handlers; null where it does not subscribe.
struct Subscriber {
  /// Small first; the core's are 0 to 9, stack maps' 10 to 19, the optional
  /// layer's 20 and up.
  unsigned Order;
  void (*On[unsigned(Event::NumEvents)])();
};

/// Calls the subscribers to E. Async-signal-safe (it reads link-time data).
void announce(Event E);

} // namespace rt
} // namespace pcmap

/// Subscribes a layer: PCMAP_SUBSCRIBE(Name, Order, {{Event::X, Fn}, ...}).
/// The section's name is a C identifier, so that the linker defines its
/// bounds, keeps it, and no sanitizer pads its entries.
#define PCMAP_SUBSCRIBE(Name, Order, ...)                                      \
  __attribute__((section("pcmap_subscribers"), used, retain,                   \
                 aligned(alignof(::pcmap::rt::Subscriber))))                   \
  const ::pcmap::rt::Subscriber Name =                                         \
      ::pcmap::rt::makeSubscriber(Order, __VA_ARGS__)

namespace pcmap {
namespace rt {
struct Subscription {
  Event E;
  void (*Fn)();
};
template <unsigned N>
constexpr Subscriber makeSubscriber(unsigned Order,
                                    const Subscription (&List)[N]) {
  Subscriber S{Order, {}};
  for (const Subscription &One : List)
    S.On[unsigned(One.E)] = One.Fn;
  return S;
}
} // namespace rt
} // namespace pcmap

#endif // PCMAP_RT_HOOKS_H
