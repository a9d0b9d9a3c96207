//===- platform_linux.cpp - Linux implementation of platform.h ------------===//

#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

namespace pcmap {
namespace rt {

void *reserveAddressSpace(size_t Size) {
  void *P = mmap(nullptr, Size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return P == MAP_FAILED ? nullptr : P;
}

void releasePages(void *Begin, size_t Size) {
  madvise(Begin, Size, MADV_DONTNEED);
}

void writeAll(int Fd, const char *Data, size_t Size) {
  int SavedErrno = errno;
  while (Size) {
    ssize_t N = write(Fd, Data, Size);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    Data += N;
    Size -= size_t(N);
  }
  errno = SavedErrno;
}

const char *getEnv(const char *Name) { return getenv(Name); }

int openForAppend(const char *Path) {
  return open(Path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

int currentProcessId() { return int(getpid()); }

static pthread_mutex_t WriterMutex = PTHREAD_MUTEX_INITIALIZER;
void lockWriters() { pthread_mutex_lock(&WriterMutex); }
void unlockWriters() { pthread_mutex_unlock(&WriterMutex); }

namespace {
struct FindContext {
  uintptr_t Address;
  LoadedObject *Out;
  bool Found;
};

int visitObject(dl_phdr_info *Info, size_t, void *Data) {
  auto *Ctx = static_cast<FindContext *>(Data);
  bool Contains = false;
  uintptr_t First = ~uintptr_t(0);
  for (unsigned I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_LOAD)
      continue;
    uintptr_t Begin = Info->dlpi_addr + P.p_vaddr;
    uintptr_t End = Begin + P.p_memsz;
    if (Begin < First)
      First = Begin;
    if (Ctx->Address >= Begin && Ctx->Address < End)
      Contains = true;
  }
  if (!Contains)
    return 0;
  LoadedObject &O = *Ctx->Out;
  O.Bias = Info->dlpi_addr;
  O.Key = First;
  O.NumSegments = 0;
  for (unsigned I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_LOAD || !(P.p_flags & PF_X) ||
        O.NumSegments == LoadedObject::kMaxSegments)
      continue;
    O.SegmentBegin[O.NumSegments] = Info->dlpi_addr + P.p_vaddr;
    O.SegmentEnd[O.NumSegments] = Info->dlpi_addr + P.p_vaddr + P.p_memsz;
    ++O.NumSegments;
  }
  const char *Name = Info->dlpi_name;
  size_t Len = 0;
  if (Name && *Name) {
    Len = strnlen(Name, sizeof(O.Path) - 1);
    memcpy(O.Path, Name, Len);
  } else {
    // The main executable has an empty name.
    ssize_t N = readlink("/proc/self/exe", O.Path, sizeof(O.Path) - 1);
    Len = N > 0 ? size_t(N) : 0;
  }
  O.Path[Len] = '\0';
  Ctx->Found = true;
  return 1;
}
} // namespace

bool findLoadedObject(uintptr_t Address, LoadedObject &Out) {
  FindContext Ctx{Address, &Out, false};
  dl_iterate_phdr(visitObject, &Ctx);
  return Ctx.Found;
}

} // namespace rt
} // namespace pcmap
