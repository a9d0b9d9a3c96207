//===- platform/linux_dlopen.cpp - dlopen and dlclose interceptors --------===//
//
// The runtime learns that objects were loaded or unloaded by intercepting
// dlopen and dlclose, as the sanitizers do; after the real call succeeded it
// announces Event::ObjectsChanged (the stack maps rescan the loaded objects).
//
//===----------------------------------------------------------------------===//

#include "platform/hooks.h"

#include <dlfcn.h>
#include <errno.h>

namespace {
using DlopenFn = void *(*)(const char *, int);
using DlcloseFn = int (*)(void *);
DlopenFn RealDlopen;
DlcloseFn RealDlclose;

template <class Fn> Fn resolveNext(Fn &Cache, const char *Name) {
  Fn F = __atomic_load_n(&Cache, __ATOMIC_ACQUIRE);
  if (!F) {
    F = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, Name));
    __atomic_store_n(&Cache, F, __ATOMIC_RELEASE);
  }
  return F;
}
} // namespace

// Weak, as the sanitizers' interceptors are, so that a program that links
// one of them too still links (the first definition then wins).
#pragma GCC visibility push(default)
extern "C" {

__attribute__((weak)) void *dlopen(const char *File, int Mode) {
  DlopenFn Real = resolveNext(RealDlopen, "dlopen");
  if (!Real)
    return nullptr; // a static executable: there is no dynamic loader
  void *Handle = Real(File, Mode);
  if (Handle) {
    int SavedErrno = errno;
    pcmap::rt::announce(pcmap::rt::Event::ObjectsChanged);
    errno = SavedErrno;
  }
  return Handle;
}

__attribute__((weak)) int dlclose(void *Handle) {
  DlcloseFn Real = resolveNext(RealDlclose, "dlclose");
  if (!Real)
    return -1;
  int Result = Real(Handle);
  if (Result == 0) {
    int SavedErrno = errno;
    pcmap::rt::announce(pcmap::rt::Event::ObjectsChanged);
    errno = SavedErrno;
  }
  return Result;
}

} // extern "C"
#pragma GCC visibility pop
