//===- platform/linux_dlopen.cpp - dlopen and dlclose interceptors --------===//
//
// The runtime learns that objects were loaded or unloaded by intercepting
// dlopen and dlclose, as the sanitizers do; after the real call succeeded it
// announces Event::ObjectsChanged (the stack maps rescan the loaded objects).
// It searches for the library as the loader would have for its caller.
//
//===----------------------------------------------------------------------===//

#include "platform/hooks.h"
#include "platform/platform.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace {

//===----------------------------------------------------------------------===//
// The caller's search path
//===----------------------------------------------------------------------===//
//
// The dynamic loader searches for a name without a slash with the DT_RPATH
// or DT_RUNPATH of the object that called dlopen, which it finds from the
// return address. Called from this interceptor, it would see the runtime (the
// executable, or libpcmap_rt.so) as the caller: a plugin that a library
// finds through its own RUNPATH ($ORIGIN/plugins) would not be found. So the
// interceptor searches the caller's directories itself, in the loader's
// order, and passes the loader the path it found:
//   1. the caller's DT_RPATH, if it has no DT_RUNPATH;
//   2. LD_LIBRARY_PATH (found there: the loader finds it the same way);
//   3. the caller's DT_RUNPATH;
// and otherwise the name as it was (the cache, the default directories). A
// library already loaded under that name is the loader's to find (its
// soname, RTLD_NOLOAD first). $ORIGIN is the caller's directory; a
// directory with another dynamic string token ($LIB, $PLATFORM) is left to
// the loader, and so is everything in a secure (setuid) process.

constexpr size_t kPathMax = 4096;

/// The directory of Object's file, NUL-terminated in Out; false if unknown.
bool originOf(const link_map *Object, char *Out) {
  const char *Name = Object->l_name;
  ssize_t N = 0;
  if (Name && *Name) {
    N = ssize_t(strnlen(Name, kPathMax - 1));
    memcpy(Out, Name, size_t(N));
  } else {
    N = readlink("/proc/self/exe", Out, kPathMax - 1); // the executable
    if (N <= 0)
      return false;
  }
  while (N > 0 && Out[N - 1] != '/')
    --N;
  if (N == 0)
    return false;
  Out[N > 1 ? N - 1 : 1] = '\0';
  return true;
}

/// Writes Dir, with $ORIGIN or ${ORIGIN} replaced by Origin, then "/" and
/// File into Out. False if the result does not fit or Dir has another token.
bool expandDirectory(const char *Dir, size_t DirLen, const char *Origin,
                     const char *File, char *Out) {
  size_t N = 0;
  auto Put = [&](const char *S, size_t Len) {
    if (N + Len >= kPathMax)
      return false;
    memcpy(Out + N, S, Len);
    N += Len;
    return true;
  };
  for (size_t I = 0; I < DirLen;) {
    if (Dir[I] != '$') {
      if (!Put(&Dir[I], 1))
        return false;
      ++I;
      continue;
    }
    size_t Token = !strncmp(&Dir[I], "$ORIGIN", 7)     ? 7
                   : !strncmp(&Dir[I], "${ORIGIN}", 9) ? 9
                                                       : 0;
    if (!Token || !Origin || !Put(Origin, strlen(Origin)))
      return false;
    I += Token;
  }
  return Put("/", 1) && Put(File, strlen(File) + 1);
}

/// Looks for File in the colon-separated List; its path in Out if found.
bool searchList(const char *List, const char *Origin, const char *File,
                char *Out) {
  for (const char *Dir = List; Dir && *Dir;) {
    const char *End = strchr(Dir, ':');
    size_t Len = End ? size_t(End - Dir) : strlen(Dir);
    if (Len && expandDirectory(Dir, Len, Origin, File, Out) &&
        access(Out, R_OK) == 0)
      return true;
    Dir = End ? End + 1 : nullptr;
  }
  return false;
}

/// The caller's DT_RPATH and DT_RUNPATH, as strings in its string table.
struct SearchPaths {
  const char *RPath = nullptr, *RunPath = nullptr;
};
SearchPaths searchPathsOf(const link_map *Object) {
  SearchPaths P;
  const char *Strings = nullptr;
  ElfW(Addr) RPath = 0, RunPath = 0;
  bool HasRPath = false, HasRunPath = false;
  for (const ElfW(Dyn) *D = Object->l_ld; D && D->d_tag != DT_NULL; ++D) {
    if (D->d_tag == DT_STRTAB)
      Strings = reinterpret_cast<const char *>(D->d_un.d_ptr);
    else if (D->d_tag == DT_RPATH)
      RPath = D->d_un.d_val, HasRPath = true;
    else if (D->d_tag == DT_RUNPATH)
      RunPath = D->d_un.d_val, HasRunPath = true;
  }
  if (!Strings)
    return P;
  if (HasRunPath)
    P.RunPath = Strings + RunPath;
  else if (HasRPath)
    P.RPath = Strings + RPath;
  return P;
}

/// The path at which the loader would have found File for a dlopen from
/// Caller, in Out; false to pass File on as it is.
bool findForCaller(const char *File, const void *Caller, char *Out) {
  if (!File || !*File || strchr(File, '/') || pcmap::rt::isSecureProcess())
    return false;
  Dl_info Info;
  link_map *Object = nullptr;
  if (!dladdr1(Caller, &Info, reinterpret_cast<void **>(&Object),
               RTLD_DL_LINKMAP) ||
      !Object)
    return false;
  // The runtime's own object: the loader sees the right caller already.
  Dl_info Self;
  if (dladdr(reinterpret_cast<void *>(&findForCaller), &Self) &&
      Self.dli_fbase == Info.dli_fbase)
    return false;
  SearchPaths Paths = searchPathsOf(Object);
  if (!Paths.RPath && !Paths.RunPath)
    return false;
  char Origin[kPathMax];
  const char *OriginP = originOf(Object, Origin) ? Origin : nullptr;
  if (Paths.RPath)
    return searchList(Paths.RPath, OriginP, File, Out);
  if (searchList(getenv("LD_LIBRARY_PATH"), nullptr, File, Out))
    return false; // the loader finds it there too
  return searchList(Paths.RunPath, OriginP, File, Out);
}

using DlopenFn = void *(*)(const char *, int);
using DlcloseFn = int (*)(void *);
DlopenFn RealDlopen;
DlcloseFn RealDlclose;

/// The C library's function Name: the next definition, or, in a static
/// executable (where these interceptors are the program's and dlsym finds
/// nothing), Static, the C library's own name for it in libc.a.
template <class Fn> Fn resolveNext(Fn &Cache, const char *Name, Fn Static) {
  Fn F = __atomic_load_n(&Cache, __ATOMIC_ACQUIRE);
  if (!F) {
    F = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, Name));
    if (!F)
      F = Static;
    __atomic_store_n(&Cache, F, __ATOMIC_RELEASE);
  }
  return F;
}
} // namespace

// glibc's own names for dlopen and dlclose in libc.a, which a static link
// holds (a static executable can load shared objects): weak references,
// used only where dlsym finds no next definition.
extern "C" void *___dlopen(const char *, int) __attribute__((weak));
extern "C" int __dlclose(void *) __attribute__((weak));

// Weak, as the sanitizers' interceptors are, so that a program that links
// one of them too still links (the first definition then wins).
#pragma GCC visibility push(default)
extern "C" {

__attribute__((weak)) void *dlopen(const char *File, int Mode) {
  DlopenFn Real = resolveNext(RealDlopen, "dlopen", &___dlopen);
  if (!Real)
    return nullptr; // a static C library without dlopen
  char Path[kPathMax];
  void *Handle = nullptr;
  if (findForCaller(File, __builtin_return_address(0), Path)) {
    // Loaded already (under its soname, say): the loader's own answer.
    Handle = Real(File, Mode | RTLD_NOLOAD);
    if (!Handle)
      Handle = Real(Path, Mode);
  } else {
    Handle = Real(File, Mode);
  }
  if (Handle) {
    int SavedErrno = errno;
    pcmap::rt::announce(pcmap::rt::Event::ObjectsChanged);
    errno = SavedErrno;
  }
  return Handle;
}

__attribute__((weak)) int dlclose(void *Handle) {
  DlcloseFn Real = resolveNext(RealDlclose, "dlclose", &__dlclose);
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
