//===- platform/linux.cpp - Linux implementation of platform.h -----------===//

#include "platform/platform.h"

#include "platform/hooks.h"
#include "platform/linux_signals.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef TRAP_PERF
#define TRAP_PERF                                                              \
  6 // a perf event's SIGTRAP (linux/signal.h); glibc 2.36 lacks it
#endif

#if !defined(__x86_64__) && !defined(__aarch64__)
#error "pcmap: the runtime supports x86-64 and AArch64 (platform/linux_*.cpp)"
#endif

namespace pcmap {
namespace rt {

void *reserveAddressSpace(size_t Size) {
  void *P = mmap(nullptr, Size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return P == MAP_FAILED ? nullptr : P;
}

void releaseAddressSpace(void *Begin, size_t Size) { munmap(Begin, Size); }

void *reserveReadOnly(size_t Size) {
  void *P = mmap(nullptr, Size, PROT_READ,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return P == MAP_FAILED ? nullptr : P;
}

bool commitPages(void *Begin, size_t Size) {
  return mprotect(Begin, Size, PROT_READ | PROT_WRITE) == 0;
}

uint64_t addressSpaceLimit() {
  struct rlimit Limit;
  if (getrlimit(RLIMIT_AS, &Limit) != 0 || Limit.rlim_cur == RLIM_INFINITY)
    return 0;
  return Limit.rlim_cur;
}

void releasePages(void *Begin, size_t Size) {
  madvise(Begin, Size, MADV_DONTNEED);
}

void adviseHugePages(void *Begin, size_t Size) {
#ifdef MADV_HUGEPAGE
  madvise(Begin, Size, MADV_HUGEPAGE);
#endif
}

/// Writes all of Data unless an error other than EINTR stops it (errno then
/// tells which).
static bool writeFully(int Fd, const char *Data, size_t Size) {
  while (Size) {
    ssize_t N = write(Fd, Data, Size);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    Data += N;
    Size -= size_t(N);
  }
  return true;
}

DescriptorIdentity identifyDescriptor(int Fd) {
  DescriptorIdentity Id;
  struct stat St;
  if (fstat(Fd, &St) != 0)
    return Id;
  // Only a regular file's flags matter (every process checks its standard
  // error at start-up: most are a terminal, a pipe or /dev/null).
  if (S_ISREG(St.st_mode)) {
    int Flags = fcntl(Fd, F_GETFL);
    if (Flags < 0)
      return Id;
    Id.OverwritesData = !(Flags & O_APPEND);
  }
  Id.Open = true;
  Id.Device = uint64_t(St.st_dev);
  Id.Inode = uint64_t(St.st_ino);
  return Id;
}

void writeAll(int Fd, const char *Data, size_t Size) {
  int SavedErrno = errno;
  writeFully(Fd, Data, Size);
  errno = SavedErrno;
}

const char *getEnv(const char *Name) { return getenv(Name); }

bool isSecureProcess() { return getauxval(AT_SECURE) != 0; }

namespace {

/// Root owns the file or directory and nobody else may change it.
bool onlyRootCanChange(const struct stat &St) {
  return St.st_uid == 0 && !(St.st_mode & (S_IWGRP | S_IWOTH));
}

/// Checks "/" and every prefix of the absolute path Path that ends at a
/// component, Path itself included. A symbolic link is judged by the
/// directory that holds it (its own mode means nothing); HasLink tells the
/// caller to check the resolved path too.
bool componentsOnlyRootCanChange(const char *Path, bool &HasLink) {
  size_t Len = strlen(Path);
  char Prefix[PATH_MAX];
  if (Path[0] != '/' || Len >= sizeof(Prefix))
    return false;
  for (size_t End = 1; End <= Len; ++End) {
    if (End != 1 && End < Len && Path[End] != '/')
      continue;
    if (End != 1 && Path[End - 1] == '/')
      continue; // "//" or a trailing '/'
    size_t N = End == 1 ? 1 : (End < Len ? End : Len);
    memcpy(Prefix, Path, N);
    Prefix[N] = '\0';
    struct stat St;
    if (lstat(Prefix, &St))
      return false;
    if (S_ISLNK(St.st_mode)) {
      HasLink = true;
      continue;
    }
    if (!onlyRootCanChange(St))
      return false;
  }
  return true;
}

} // namespace

bool isRootOwnedExecutable(const char *Path) {
  bool HasLink = false;
  if (!Path || !componentsOnlyRootCanChange(Path, HasLink))
    return false;
  char Resolved[PATH_MAX];
  if (HasLink) {
    if (!realpath(Path, Resolved) ||
        !componentsOnlyRootCanChange(Resolved, HasLink))
      return false;
    Path = Resolved;
  }
  struct stat St;
  return !stat(Path, &St) && S_ISREG(St.st_mode) && (St.st_mode & S_IXUSR) &&
         onlyRootCanChange(St);
}

int openOutputFile(const char *Path) {
  // O_NONBLOCK: opening a FIFO for writing would otherwise wait for a reader.
  int Fd;
  do
    Fd = open(Path,
              O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NOCTTY |
                  O_NONBLOCK | O_CLOEXEC,
              0600);
  while (Fd < 0 && errno == EINTR);
  if (Fd < 0)
    return -1;
  struct stat St;
  if (fstat(Fd, &St) || !S_ISREG(St.st_mode)) {
    close(Fd);
    errno = EINVAL;
    return -1;
  }
  fcntl(Fd, F_SETFL, O_APPEND);
  return Fd;
}

int currentProcessId() { return int(getpid()); }

static pthread_mutex_t WriterMutex = PTHREAD_MUTEX_INITIALIZER;
/// The thread holding WriterMutex (its pthread_self), 0 when it is free:
/// lockWritersUnlessHeldHere tells a signal handler that interrupted the
/// holder from one that waits for another thread.
static uintptr_t WriterOwner;
/// The process that took WriterMutex where a fork could copy it held by a
/// thread the child does not have (fork handlers not installed yet, other
/// threads possible: a signal handler's first query, in a process whose
/// threads started past the pthread_create interceptor); 0 otherwise.
static int WriterPid;
static bool ForkHandlersInstalled;

static void noteWriterOwner() {
  __atomic_store_n(&WriterOwner, uintptr_t(pthread_self()), __ATOMIC_RELAXED);
}

/// A child of a fork that copied WriterMutex held by another thread (one
/// it does not have) frees it: the holder never will. Called when the lock
/// is found taken. The writer's structures may be half-updated in the
/// child, as the holder left them; readers never see them (they read what
/// was published), and the child's next writer rebuilds from its records.
static void breakLockLeftByFork() {
  int Pid = __atomic_load_n(&WriterPid, __ATOMIC_RELAXED);
  if (!Pid || Pid == getpid())
    return;
  pthread_mutex_t Fresh = PTHREAD_MUTEX_INITIALIZER;
  memcpy(&WriterMutex, &Fresh, sizeof(Fresh));
  __atomic_store_n(&WriterPid, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&WriterOwner, uintptr_t(0), __ATOMIC_RELAXED);
}

// A child forked while another thread registers would inherit the writer
// lock held by a thread it does not have: its first registration (a dlopen)
// would wait forever. The forking thread takes the lock around fork(), so
// that the child gets the tables whole and the lock free. (Queries take no
// lock and are unaffected.)
static void lockForFork() {
  pthread_mutex_lock(&WriterMutex);
  noteWriterOwner();
}
static void unlockAfterFork() { unlockWriters(); }

static void unlockInForkChild() {
  unlockWriters();
  announce(Event::ForkChild);
}
static pthread_once_t ForkHandlersOnce = PTHREAD_ONCE_INIT;
static void installForkHandlers() {
  pthread_atfork(lockForFork, unlockAfterFork, unlockInForkChild);
  __atomic_store_n(&ForkHandlersInstalled, true, __ATOMIC_RELEASE);
}
void ensureForkHandlers() {
  pthread_once(&ForkHandlersOnce, installForkHandlers);
}

// Set by the C library (glibc 2.32 and later) while the process has one
// thread, cleared by its pthread_create; absent elsewhere.
extern "C" char __libc_single_threaded __attribute__((weak));

bool mayHaveOtherThreads() {
  return !&__libc_single_threaded ||
         !__atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED);
}

PCMAP_STARTUP_CODE static void announceExit() { announce(Event::Exit); }
PCMAP_STARTUP_CODE void announceExitAtExit() { atexit(announceExit); }

int parentProcessId() { return int(getppid()); }

uint64_t randomBits() {
  uint64_t Bits = 0;
  if (syscall(SYS_getrandom, &Bits, sizeof(Bits), 1 /*GRND_NONBLOCK*/) ==
      long(sizeof(Bits)))
    return Bits;
  struct timespec T;
  clock_gettime(CLOCK_REALTIME, &T);
  Bits = uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
  return (Bits ^ (uint64_t(getpid()) << 40)) * 0x9e3779b97f4a7c15ull;
}

uint64_t processCPUNanos() {
  struct timespec T;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T))
    return 0;
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

uint64_t threadCPUNanos() {
  struct timespec T;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T))
    return 0;
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

uint64_t monotonicNanos() {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

ContextSwitches threadContextSwitches() {
  struct rusage Usage;
  if (syscall(SYS_getrusage, RUSAGE_THREAD, &Usage) != 0)
    return {0, 0};
  return {uint64_t(Usage.ru_nvcsw), uint64_t(Usage.ru_nivcsw)};
}

uint64_t threadSystemNanos() {
  struct rusage Usage;
  if (syscall(SYS_getrusage, RUSAGE_THREAD, &Usage) != 0)
    return 0;
  return uint64_t(Usage.ru_stime.tv_sec) * 1000000000u +
         uint64_t(Usage.ru_stime.tv_usec) * 1000u;
}

bool makeWakeupPipe(int (&Fds)[2]) {
  return pipe2(Fds, O_CLOEXEC | O_NONBLOCK) == 0;
}

void lockWriters() {
  if (mayHaveOtherThreads())
    ensureForkHandlers();
  if (pthread_mutex_trylock(&WriterMutex) != 0) {
    breakLockLeftByFork();
    pthread_mutex_lock(&WriterMutex);
  }
  noteWriterOwner();
}
void unlockWriters() {
  __atomic_store_n(&WriterOwner, uintptr_t(0), __ATOMIC_RELAXED);
  __atomic_store_n(&WriterPid, 0, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&WriterMutex);
}
bool tryLockWriters() {
  if (pthread_mutex_trylock(&WriterMutex) != 0)
    return false;
  noteWriterOwner();
  return true;
}

bool lockWritersUnlessHeldHere() {
  // Installs no fork handlers: it may run in a signal handler, and
  // pthread_atfork allocates (see lockWriters).
  uintptr_t Self = uintptr_t(pthread_self());
  while (!tryLockWriters()) {
    if (__atomic_load_n(&WriterOwner, __ATOMIC_RELAXED) == Self)
      return false; // a handler on the thread that holds it: it would wait
                    // for itself
    breakLockLeftByFork();
    sched_yield();
  }
  // Without fork handlers, a fork by another thread meanwhile copies the
  // lock held: the child frees it (breakLockLeftByFork).
  if (!__atomic_load_n(&ForkHandlersInstalled, __ATOMIC_ACQUIRE) &&
      mayHaveOtherThreads())
    __atomic_store_n(&WriterPid, int(getpid()), __ATOMIC_RELAXED);
  return true;
}

namespace {
struct WalkContext {
  bool (*Visit)(const ObjectHeaders &, void *);
  void *Data;
};

/// The object's first mapped address (its lowest PT_LOAD), which identifies
/// it while it is loaded; all ones if it has no PT_LOAD.
uintptr_t firstLoadAddress(const ObjectHeaders &O) {
  uintptr_t Key = ~uintptr_t(0);
  for (unsigned I = 0; I < O.NumPhdrs; ++I)
    if (O.Phdrs[I].p_type == PT_LOAD && O.Bias + O.Phdrs[I].p_vaddr < Key)
      Key = O.Bias + O.Phdrs[I].p_vaddr;
  return Key;
}

int visitLoaderEntry(dl_phdr_info *Info, size_t, void *Data) {
  const auto &Walk = *static_cast<WalkContext *>(Data);
  ObjectHeaders O;
  O.Bias = Info->dlpi_addr;
  O.Phdrs = Info->dlpi_phdr;
  O.NumPhdrs = Info->dlpi_phnum;
  O.Name = Info->dlpi_name ? Info->dlpi_name : "";
  O.Key = firstLoadAddress(O);
  O.TlsData = Info->dlpi_tls_data;
  return Walk.Visit(O, Walk.Data) ? 1 : 0;
}

/// The GNU build ID in the object's PT_NOTE segments (in memory): its size,
/// 0 if there is none or it does not fit in Size bytes.
unsigned readBuildId(const ObjectHeaders &H, uint8_t *Out, size_t Size) {
  for (unsigned I = 0; I < H.NumPhdrs; ++I) {
    const ElfW(Phdr) &P = H.Phdrs[I];
    if (P.p_type != PT_NOTE)
      continue;
    const auto *Note = reinterpret_cast<const uint8_t *>(H.Bias + P.p_vaddr);
    const uint8_t *End = Note + P.p_memsz;
    size_t Align = P.p_align > 4 ? P.p_align : 4;
    auto Round = [Align](size_t N) { return (N + Align - 1) & ~(Align - 1); };
    while (size_t(End - Note) >= sizeof(ElfW(Nhdr))) {
      const auto *N = reinterpret_cast<const ElfW(Nhdr) *>(Note);
      const uint8_t *Name = Note + sizeof(ElfW(Nhdr));
      const uint8_t *Desc = Name + Round(N->n_namesz);
      if (Desc > End || N->n_descsz > size_t(End - Desc))
        break;
      if (N->n_type == NT_GNU_BUILD_ID && N->n_namesz == 4 &&
          !memcmp(Name, "GNU", 4) && N->n_descsz <= Size) {
        memcpy(Out, Desc, N->n_descsz);
        return N->n_descsz;
      }
      Note = Desc + Round(N->n_descsz);
    }
  }
  return 0;
}

struct FindContext {
  uintptr_t Address;
  LoadedObject *Out;
  bool Found;
};

bool findContaining(const ObjectHeaders &H, void *Data) {
  auto &Ctx = *static_cast<FindContext *>(Data);
  bool Contains = false;
  for (unsigned I = 0; I < H.NumPhdrs; ++I) {
    const ElfW(Phdr) &P = H.Phdrs[I];
    if (P.p_type == PT_LOAD && Ctx.Address >= H.Bias + P.p_vaddr &&
        Ctx.Address < H.Bias + P.p_vaddr + P.p_memsz)
      Contains = true;
  }
  if (!Contains)
    return false;
  LoadedObject &O = *Ctx.Out;
  O.Bias = H.Bias;
  O.Key = H.Key;
  O.NumSegments = 0;
  for (unsigned I = 0; I < H.NumPhdrs; ++I) {
    const ElfW(Phdr) &P = H.Phdrs[I];
    if (P.p_type != PT_LOAD || !(P.p_flags & PF_X) ||
        O.NumSegments == LoadedObject::kMaxSegments)
      continue;
    O.SegmentBegin[O.NumSegments] = H.Bias + P.p_vaddr;
    O.SegmentEnd[O.NumSegments] = H.Bias + P.p_vaddr + P.p_memsz;
    ++O.NumSegments;
  }
  objectFilePath(H, O.Path, sizeof(O.Path));
  O.BuildIdSize = readBuildId(H, O.BuildId, sizeof(O.BuildId));
  Ctx.Found = true;
  return true;
}
} // namespace

void forEachLoadedObject(bool (*Visit)(const ObjectHeaders &, void *),
                         void *Data) {
  WalkContext Walk{Visit, Data};
  dl_iterate_phdr(visitLoaderEntry, &Walk);
}

namespace {
/// The executable's path, as execve was given it (AT_EXECFN), made absolute
/// with the working directory the process started in; empty where the
/// name would not do: none, too long, or one that names whatever process
/// opens it (/proc/self/exe, a /dev/fd/ descriptor of fexecve).
PCMAP_STARTUP_STATE char ExecutablePath[512];
PCMAP_STARTUP_STATE bool ExecutablePathKnown;

/// Works ExecutablePath out without asking the file system (a readlink of
/// /proc/self/exe costs tens of microseconds in a new process): getcwd
/// only where the name is relative. Run by a constructor, before the
/// program can change its working directory, and on first use.
PCMAP_STARTUP_CODE void rememberExecutablePath() {
  if (__atomic_load_n(&ExecutablePathKnown, __ATOMIC_ACQUIRE))
    return;
  const char *Name = reinterpret_cast<const char *>(getauxval(AT_EXECFN));
  size_t Len = 0;
  if (Name && *Name && strncmp(Name, "/proc/", 6) != 0 &&
      strncmp(Name, "/dev/fd/", 8) != 0) {
    if (*Name != '/' && getcwd(ExecutablePath, sizeof(ExecutablePath)))
      Len = strlen(ExecutablePath);
    while (Name[0] == '.' && Name[1] == '/')
      Name += 2;
    size_t NameLen = strlen(Name);
    bool Slash = Len && ExecutablePath[Len - 1] != '/';
    if ((*Name == '/' || Len) &&
        Len + Slash + NameLen < sizeof(ExecutablePath)) {
      if (Slash)
        ExecutablePath[Len++] = '/';
      memcpy(ExecutablePath + Len, Name, NameLen);
      Len += NameLen;
    } else {
      Len = 0;
    }
  }
  ExecutablePath[Len] = '\0';
  // "/./" and "//" say nothing ("/../" may, through a symbolic link).
  size_t Out = 0;
  for (size_t In = 0; In < Len;) {
    if (Out && ExecutablePath[Out - 1] == '/' && ExecutablePath[In] == '/') {
      ++In;
      continue;
    }
    if (Out && ExecutablePath[Out - 1] == '/' && ExecutablePath[In] == '.' &&
        ExecutablePath[In + 1] == '/') {
      In += 2;
      continue;
    }
    ExecutablePath[Out++] = ExecutablePath[In++];
  }
  ExecutablePath[Out] = '\0';
  __atomic_store_n(&ExecutablePathKnown, true, __ATOMIC_RELEASE);
}

__attribute__((constructor(101))) void rememberExecutablePathEarly() {
  rememberExecutablePath();
}
} // namespace

size_t objectFilePath(const ObjectHeaders &O, char *Path, size_t Size) {
  if (!Size)
    return 0;
  size_t Len = 0;
  if (*O.Name) {
    Len = strnlen(O.Name, Size - 1);
    memcpy(Path, O.Name, Len);
  } else {
    // The main executable has an empty name: the one it was started by,
    // else the file system's (which resolves symbolic links).
    rememberExecutablePath();
    Len = strnlen(ExecutablePath, Size - 1);
    if (Len) {
      memcpy(Path, ExecutablePath, Len);
    } else {
      ssize_t N = readlink("/proc/self/exe", Path, Size - 1);
      Len = N > 0 ? size_t(N) : 0;
    }
  }
  Path[Len] = '\0';
  return Len;
}

int openForReading(const char *Path) {
  int Fd;
  do
    Fd = open(Path, O_RDONLY | O_CLOEXEC);
  while (Fd < 0 && errno == EINTR);
  return Fd;
}

long readWholeFile(const char *Path, char *Buffer, size_t Size) {
  int Fd = openForReading(Path);
  if (Fd < 0)
    return -1;
  size_t Got = 0;
  long Result = 0;
  for (;;) {
    char Extra;
    char *To = Got < Size ? Buffer + Got : &Extra;
    ssize_t R = read(Fd, To, Got < Size ? Size - Got : 1);
    if (R < 0 && errno == EINTR)
      continue;
    if (R < 0 || (R > 0 && Got >= Size)) {
      Result = R < 0 ? -1 : -2;
      break;
    }
    if (R == 0) {
      Result = long(Got);
      break;
    }
    Got += size_t(R);
  }
  close(Fd);
  return Result;
}

void exitProcessNow(int Status) {
  fflush(stdout);
  fflush(stderr);
  _exit(Status);
}

bool readFileAt(int Fd, void *Buffer, size_t Size, uint64_t Offset) {
  char *P = static_cast<char *>(Buffer);
  while (Size) {
    ssize_t R = pread(Fd, P, Size, off_t(Offset));
    if (R < 0 && errno == EINTR)
      continue;
    if (R <= 0)
      return false;
    P += R;
    Size -= size_t(R);
    Offset += uint64_t(R);
  }
  return true;
}

namespace {
/// The headers of the loaded object holding Address, found without walking
/// the others: glibc's _dl_find_object (2.35; lock-free, logarithmic), so
/// that registering a library costs the same however many are loaded. The
/// object's ELF header is at the start of its mapping (its first PT_LOAD
/// maps file offset 0, as linkers lay objects out); false where it is not,
/// or where the loader does not know Address: the caller then walks.
bool headersOfObjectAt(uintptr_t Address, ObjectHeaders &H) {
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 35)
  struct dl_find_object Found;
  if (_dl_find_object(reinterpret_cast<void *>(Address), &Found) != 0 ||
      !Found.dlfo_link_map)
    return false;
  const auto *E = static_cast<const ElfW(Ehdr) *>(Found.dlfo_map_start);
  uintptr_t End = reinterpret_cast<uintptr_t>(Found.dlfo_map_end);
  if (uintptr_t(E) + sizeof(*E) > End ||
      memcmp(E->e_ident, ELFMAG, SELFMAG) != 0 ||
      E->e_phentsize != sizeof(ElfW(Phdr)) ||
      uintptr_t(E) + E->e_phoff + E->e_phnum * sizeof(ElfW(Phdr)) > End)
    return false;
  H.Bias = Found.dlfo_link_map->l_addr;
  H.Phdrs = reinterpret_cast<const ElfW(Phdr) *>(uintptr_t(E) + E->e_phoff);
  H.NumPhdrs = E->e_phnum;
  H.Name = Found.dlfo_link_map->l_name ? Found.dlfo_link_map->l_name : "";
  H.Key = firstLoadAddress(H);
  H.TlsData = nullptr;
  return H.Key != ~uintptr_t(0);
#else
  (void)Address;
  (void)H;
  return false;
#endif
}
} // namespace

bool findLoadedObject(uintptr_t Address, LoadedObject &Out) {
  FindContext Ctx{Address, &Out, false};
  ObjectHeaders H;
  if (headersOfObjectAt(Address, H) && findContaining(H, &Ctx))
    return true;
  forEachLoadedObject(findContaining, &Ctx);
  return Ctx.Found;
}

namespace {
/// The indexes unwindIndexFor falls back on: objects' code ranges and their
/// .eh_frame_hdr, written by noteUnwindIndexes before any walk reads them.
struct NotedIndex {
  uintptr_t Begin, End;
  const uint8_t *Index;
};
constexpr unsigned kMaxNotedIndexes = 16;
NotedIndex NotedIndexes[kMaxNotedIndexes];
unsigned NumNotedIndexes;

bool noteIndexOf(const ObjectHeaders &H, void *) {
  const uint8_t *Index = nullptr;
  uintptr_t Begin = ~uintptr_t(0), End = 0;
  for (unsigned I = 0; I < H.NumPhdrs; ++I) {
    const ElfW(Phdr) &P = H.Phdrs[I];
    if (P.p_type == PT_GNU_EH_FRAME)
      Index = reinterpret_cast<const uint8_t *>(H.Bias + P.p_vaddr);
    if (P.p_type == PT_LOAD && (P.p_flags & PF_X)) {
      Begin = Begin < H.Bias + P.p_vaddr ? Begin : H.Bias + P.p_vaddr;
      End = End > H.Bias + P.p_vaddr + P.p_memsz
                ? End
                : H.Bias + P.p_vaddr + P.p_memsz;
    }
  }
  unsigned N = __atomic_load_n(&NumNotedIndexes, __ATOMIC_RELAXED);
  if (Index && Begin < End && N < kMaxNotedIndexes) {
    NotedIndexes[N] = {Begin, End, Index};
    __atomic_store_n(&NumNotedIndexes, N + 1, __ATOMIC_RELEASE);
  }
  return N + 1 >= kMaxNotedIndexes;
}
} // namespace

void noteUnwindIndexes() {
  static bool Noted;
  if (__atomic_exchange_n(&Noted, true, __ATOMIC_ACQ_REL))
    return;
  forEachLoadedObject(noteIndexOf, nullptr);
}

const uint8_t *unwindIndexFor(uintptr_t PC) {
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 35)
  struct dl_find_object Found;
  if (_dl_find_object(reinterpret_cast<void *>(PC), &Found) == 0)
    return static_cast<const uint8_t *>(Found.dlfo_eh_frame);
#endif
  unsigned N = __atomic_load_n(&NumNotedIndexes, __ATOMIC_ACQUIRE);
  for (unsigned I = 0; I < N; ++I)
    if (PC >= NotedIndexes[I].Begin && PC < NotedIndexes[I].End)
      return NotedIndexes[I].Index;
  return nullptr;
}

} // namespace rt
} // namespace pcmap

//===----------------------------------------------------------------------===//
// Async-signal-safe services
//===----------------------------------------------------------------------===//

namespace pcmap {
namespace rt {

namespace {

/// Reads a file line by line through a fixed buffer (no stdio, no malloc).
class LineReader {
public:
  explicit LineReader(int Fd) : Fd(Fd) {}
  /// The next line without its newline, NUL-terminated; null at the end.
  /// Lines longer than the buffer are cut.
  char *next() {
    for (;;) {
      char *NL = static_cast<char *>(memchr(Buf + Pos, '\n', Len - Pos));
      if (NL) {
        *NL = '\0';
        char *Line = Buf + Pos;
        Pos = size_t(NL - Buf) + 1;
        return Line;
      }
      if (Pos == 0 && Len == sizeof(Buf) - 1) {
        // A line longer than the buffer: return what fits.
        Buf[Len] = '\0';
        Pos = Len;
        return Buf;
      }
      memmove(Buf, Buf + Pos, Len - Pos);
      Len -= Pos;
      Pos = 0;
      ssize_t N;
      do
        N = read(Fd, Buf + Len, sizeof(Buf) - 1 - Len);
      while (N < 0 && errno == EINTR);
      if (N <= 0) {
        if (Len == 0)
          return nullptr;
        Buf[Len] = '\0';
        Pos = Len;
        return Buf;
      }
      Len += size_t(N);
    }
  }

private:
  int Fd;
  char Buf[4096];
  size_t Pos = 0, Len = 0;
};

uint64_t parseHex(const char *&P) {
  uint64_t V = 0;
  for (;; ++P) {
    char C = *P;
    unsigned D;
    if (C >= '0' && C <= '9')
      D = unsigned(C - '0');
    else if (C >= 'a' && C <= 'f')
      D = unsigned(C - 'a' + 10);
    else
      return V;
    V = V << 4 | D;
  }
}

void skipField(const char *&P) {
  while (*P && *P != ' ')
    ++P;
  while (*P == ' ')
    ++P;
}

struct MapsLine {
  uint64_t Begin, End, Offset;
  const char *Path;
};

bool parseMapsLine(const char *P, MapsLine &L) {
  L.Begin = parseHex(P);
  if (*P++ != '-')
    return false;
  L.End = parseHex(P);
  skipField(P); // to the permissions
  skipField(P); // to the offset
  L.Offset = parseHex(P);
  skipField(P); // to the device
  skipField(P); // to the inode
  skipField(P); // to the path (or the end)
  L.Path = P;
  return true;
}

/// The load bias of the ELF object whose first page is mapped at Base.
bool biasFromHeaders(uintptr_t Base, uintptr_t &Bias) {
  const auto *E = reinterpret_cast<const ElfW(Ehdr) *>(Base);
  if (memcmp(E->e_ident, ELFMAG, SELFMAG) ||
      E->e_phentsize != sizeof(ElfW(Phdr)) ||
      E->e_phoff + E->e_phnum * sizeof(ElfW(Phdr)) > 4096)
    return false;
  const auto *P = reinterpret_cast<const ElfW(Phdr) *>(Base + E->e_phoff);
  for (unsigned I = 0; I < E->e_phnum; ++I)
    if (P[I].p_type == PT_LOAD && P[I].p_offset == 0) {
      Bias = Base - (P[I].p_vaddr & ~uintptr_t(4095));
      return true;
    }
  return false;
}

/// /proc/self/maps, opened async-signal-safely; -1 if it cannot be.
int openMaps() {
  int Fd;
  do
    Fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  while (Fd < 0 && errno == EINTR);
  return Fd;
}

} // namespace

bool stackMappingAt(uintptr_t SP, uintptr_t &Begin, uintptr_t &End) {
  int Fd = openMaps();
  if (Fd < 0)
    return false;
  LineReader Lines(Fd);
  bool Found = false;
  while (char *Line = Lines.next()) {
    MapsLine L;
    const char *Perms = strchr(Line, ' ');
    bool Accessible = Perms && !(Perms[1] == '-' && Perms[2] == '-');
    if (parseMapsLine(Line, L) && Accessible && SP < L.End) {
      Begin = uintptr_t(L.Begin);
      End = uintptr_t(L.End);
      Found = true;
      break;
    }
  }
  close(Fd);
  return Found;
}

/// A line of /proc/self/maps as a MappingInfo (PathOffset left alone) and
/// its path; false if it does not parse.
bool parseMappingInfo(const char *Line, MappingInfo &M, const char *&Path) {
  MapsLine L;
  const char *Perms = strchr(Line, ' ');
  if (!Perms || strlen(Perms) < 5 || !parseMapsLine(Line, L))
    return false;
  M.Begin = uintptr_t(L.Begin);
  M.End = uintptr_t(L.End);
  M.Offset = L.Offset;
  M.Shared = Perms[4] == 's';
  // The inode is the field before the path.
  const char *Inode = L.Path;
  while (Inode > Line && Inode[-1] == ' ')
    --Inode;
  while (Inode > Line && Inode[-1] != ' ')
    --Inode;
  M.Inode = 0;
  for (; *Inode >= '0' && *Inode <= '9'; ++Inode)
    M.Inode = M.Inode * 10 + uint64_t(*Inode - '0');
  Path = L.Path;
  return true;
}

unsigned readMappings(MappingInfo *Out, unsigned Max, char *Paths,
                      size_t PathsSize) {
  int Fd = openMaps();
  if (Fd < 0)
    return 0;
  LineReader Lines(Fd);
  unsigned N = 0;
  size_t Used = 0;
  Paths[PathsSize - 1] = '\0';
  while (char *Line = Lines.next()) {
    const char *Path;
    if (N == Max || !parseMappingInfo(Line, Out[N], Path))
      break;
    MappingInfo &M = Out[N++];
    // Paths[PathsSize - 1] stays the empty path of those that do not fit.
    size_t Room = Used + 1 < PathsSize ? PathsSize - 1 - Used : 0;
    size_t Len = strnlen(Path, Room ? Room - 1 : 0);
    M.PathOffset = uint32_t(Room ? Used : PathsSize - 1);
    if (Room) {
      memcpy(Paths + Used, Path, Len);
      Paths[Used + Len] = '\0';
      Used += Len + 1;
    }
  }
  close(Fd);
  return N;
}

bool mappingAt(uintptr_t Address, MappingInfo &Out, char *Path,
               size_t PathSize) {
  int Fd = openMaps();
  if (Fd < 0)
    return false;
  LineReader Lines(Fd);
  bool Found = false;
  while (char *Line = Lines.next()) {
    const char *In;
    if (!parseMappingInfo(Line, Out, In) || Address >= Out.End)
      continue;
    Found = Address >= Out.Begin;
    if (Found && PathSize) {
      size_t N = strnlen(In, PathSize - 1);
      memcpy(Path, In, N);
      Path[N] = '\0';
    }
    break;
  }
  close(Fd);
  return Found;
}

bool findMapping(uintptr_t Address, char *Path, size_t PathSize,
                 uintptr_t &Bias) {
  int Fd = openMaps();
  if (Fd < 0)
    return false;
  LineReader Lines(Fd);
  // The object's first mapping (file offset 0) comes before its others.
  uintptr_t FirstOfFile = 0;
  char FirstPath[512] = "";
  bool Found = false;
  while (char *Line = Lines.next()) {
    MapsLine L;
    if (!parseMapsLine(Line, L))
      continue;
    if (L.Offset == 0 && *L.Path == '/') {
      FirstOfFile = uintptr_t(L.Begin);
      size_t N = strnlen(L.Path, sizeof(FirstPath) - 1);
      memcpy(FirstPath, L.Path, N);
      FirstPath[N] = '\0';
    }
    if (Address < L.Begin || Address >= L.End)
      continue;
    if (*L.Path != '/' || strcmp(L.Path, FirstPath) != 0)
      break; // anonymous, [stack], [vdso], or no header mapping seen
    size_t N = strnlen(L.Path, PathSize ? PathSize - 1 : 0);
    memcpy(Path, L.Path, N);
    Path[N] = '\0';
    Found = biasFromHeaders(FirstOfFile, Bias);
    break;
  }
  close(Fd);
  return Found;
}

uintptr_t pageSize() {
  // The auxiliary vector, which a signal handler may read (sysconf is not
  // async-signal-safe), and which costs no symbol binding at start-up.
  uintptr_t Page = getauxval(AT_PAGESZ);
  return Page ? Page : 4096;
}

bool pageIsMapped(uintptr_t Address) {
  unsigned char Resident;
  uintptr_t Page = Address & ~(pageSize() - 1);
  return syscall(SYS_mincore, Page, 1, &Resident) == 0;
}

size_t copyMemorySafely(uintptr_t Address, void *Buffer, size_t Size) {
  struct iovec Local = {Buffer, Size};
  struct iovec Remote = {reinterpret_cast<void *>(Address), Size};
  long Copied =
      syscall(SYS_process_vm_readv, getpid(), &Local, 1UL, &Remote, 1UL, 0UL);
  if (Copied >= 0)
    return size_t(Copied);
  if (errno == EFAULT)
    return 0;
  // Forbidden (a seccomp sandbox): page by page, while the pages are mapped.
  size_t Done = 0;
  while (Done < Size && pageIsMapped(Address + Done)) {
    uintptr_t PageEnd = ((Address + Done) | (pageSize() - 1)) + 1;
    size_t Chunk = PageEnd - (Address + Done);
    Chunk = Chunk < Size - Done ? Chunk : Size - Done;
    memcpy(static_cast<char *>(Buffer) + Done,
           reinterpret_cast<const void *>(Address + Done), Chunk);
    Done += Chunk;
  }
  return Done;
}

int currentThreadId() { return int(syscall(SYS_gettid)); }

/// Closes every descriptor from First on (in a child about to exec, which
/// must not inherit the program's files, sockets or pipes).
static void closeDescriptorsFrom(int First) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, unsigned(First), ~0u, 0u) == 0)
    return;
#endif
  // Kernels before 5.9: close them one by one, up to the descriptor limit.
  struct rlimit Limit;
  long Last = 1 << 16;
  if (!getrlimit(RLIMIT_NOFILE, &Limit) && Limit.rlim_cur != RLIM_INFINITY &&
      Limit.rlim_cur < (1u << 20))
    Last = long(Limit.rlim_cur);
  for (long Fd = First; Fd < Last; ++Fd)
    close(int(Fd));
}

namespace {
/// In the child of spawnWithPipes: makes the pipes its standard input and
/// output, /dev/null its standard error, closes the rest and runs Path.
[[noreturn]] void execWithPipes(const char *Path, const char *const *Argv,
                                int In, int Out) {
  // The standard descriptors are copied from above 2: a program that
  // closed its standard input or output got a pipe end as 0 or 1.
  int Null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  int Std[3] = {fcntl(In, F_DUPFD_CLOEXEC, 3), fcntl(Out, F_DUPFD_CLOEXEC, 3),
                Null < 0 ? -1 : fcntl(Null, F_DUPFD_CLOEXEC, 3)};
  for (int Fd = 0; Fd < 3; ++Fd)
    if (Std[Fd] < 0 || dup2(Std[Fd], Fd) < 0)
      syscall(SYS_exit_group, 127);
  closeDescriptorsFrom(3);
  static char *const NoEnv[] = {nullptr};
  execve(Path, const_cast<char *const *>(Argv), NoEnv);
  syscall(SYS_exit_group, 127);
  __builtin_unreachable();
}

/// The go-between of spawnWithPipes: the helper's parent, which waits for
/// it and exits with it. Runs only system calls, with every signal blocked
/// (the program's handlers, inherited, never run in it).
[[noreturn]] void runGoBetween(const char *Path, const char *const *Argv,
                               int In, int Out) {
  sigset_t All;
  sigfillset(&All);
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &All, nullptr, _NSIG / 8);
  long Self = syscall(SYS_getpid);
  long Helper = syscall(SYS_clone, SIGCHLD, nullptr, nullptr, nullptr, nullptr);
  if (Helper == 0) {
    // Killed with its go-between (reapChild's SIGKILL, the program's end).
    syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (syscall(SYS_getppid) != Self)
      syscall(SYS_exit_group, 127);
    sigset_t None;
    sigemptyset(&None);
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &None, nullptr, _NSIG / 8);
    execWithPipes(Path, Argv, In, Out);
  }
  // The go-between keeps none of the program's descriptors: the pipes'
  // ends are the helper's and the caller's alone.
  closeDescriptorsFrom(0);
  int Status = 0;
  while (Helper > 0 &&
         syscall(SYS_wait4, Helper, &Status, 0, nullptr) < 0 &&
         errno == EINTR) {
  }
  syscall(SYS_exit_group, 0);
  __builtin_unreachable();
}
} // namespace

int spawnWithPipes(const char *Path, const char *const *Argv, int &ToChild,
                   int &FromChild) {
  int In[2], Out[2];
  if (pipe2(In, O_CLOEXEC))
    return -1;
  if (pipe2(Out, O_CLOEXEC)) {
    close(In[0]);
    close(In[1]);
    return -1;
  }
  // Raw clones: fork() would run the process's fork handlers, which take
  // locks (malloc's, for one) that the interrupted code may hold. The
  // helper is the child of a go-between that is a "clone" child of the
  // program (no exit signal, never execs, which would make its exit signal
  // SIGCHLD again): no SIGCHLD reaches the program, and no wait() or
  // waitpid(-1) of the program reaps either (only __WCLONE and __WALL
  // waits see the go-between: reapChild's).
  long Pid = syscall(SYS_clone, 0L, nullptr, nullptr, nullptr, nullptr);
  // qemu-user emulates no exit signal but SIGCHLD for a process: there the
  // go-between is an ordinary child.
  if (Pid < 0 && errno == EINVAL)
    Pid = syscall(SYS_clone, long(SIGCHLD), nullptr, nullptr, nullptr, nullptr);
  if (Pid == 0)
    runGoBetween(Path, Argv, In[0], Out[1]);
  close(In[0]);
  close(Out[1]);
  if (Pid < 0) {
    close(In[1]);
    close(Out[0]);
    return -1;
  }
  ToChild = In[1];
  FromChild = Out[0];
  return int(Pid);
}

/// Binds the library functions the runtime's handlers call before any
/// signal comes. The first call of a lazily bound function goes through the
/// dynamic linker's resolver, which saves the whole vector register state on
/// the stack: some 1.5 KiB more of whatever stack the signal came on, a
/// small alternate stack of the program's included.
PCMAP_STARTUP_CODE static void bindHandlerCalls() {
  PCMAP_STARTUP_STATE static bool Bound;
  if (Bound)
    return;
  Bound = true;
  sigset_t Set;
  sigemptyset(&Set);
  sigorset(&Set, &Set, &Set);
  sigaddset(&Set, SIGSEGV);
  int Saved = errno;
  errno = Saved + int(syscall(SYS_getpid) < 0) + int(getpid() < 0);
  // The block operations the compiler may call for the tracer's stack
  // table (GCC calls memcmp where clang calls bcmp), with a length it
  // cannot see, so that it calls them here too. Without, a GCC-built
  // runtime's first sample bound memcmp on a fiber's 16 KiB stack: 1.6 KiB
  // more of it with AVX-512's register state (rt/stack-bounds.c).
  // (A length hidden from the compiler, buffers larger than any it could
  // infer, and empty asm statements that read what each call wrote, so
  // that none is folded away; the comparison against zero, as the table
  // makes it, which clang turns into bcmp.)
  size_t N = 1;
  asm volatile("" : "+r"(N));
  char A[256], B[256];
  memset(B, 0, N);
  asm volatile("" : : "r"(A), "r"(B) : "memory");
  memcpy(A, B, N);
  asm volatile("" : : "r"(A), "r"(B) : "memory");
  bool Same = memcmp(A, B, N) == 0;
  asm volatile("" : : "r"(Same));
  errno = Saved;
}

PCMAP_STARTUP_CODE void installSignalHandler(int Signal, SignalHandler Handler,
                                             int Flags,
                                             struct sigaction *Previous) {
  struct sigaction Action;
  memset(&Action, 0, sizeof(Action));
  Action.sa_sigaction = Handler;
  Action.sa_flags = Flags | SA_SIGINFO;
  sigemptyset(&Action.sa_mask);
  callSigaction(Signal, &Action, Previous);
  bindHandlerCalls();
}

/// Every signal but the synchronous ones, which a handler must still take
/// (a nested fault while blocked kills the process).
static void asynchronousSignals(sigset_t &Set) {
  sigfillset(&Set);
  static constexpr int kSynchronous[] = {SIGSEGV, SIGBUS,  SIGILL,
                                         SIGFPE,  SIGTRAP, SIGSYS};
  for (int Sync : kSynchronous)
    sigdelset(&Set, Sync);
}

void installSamplingHandler(int Signal, SignalHandler Handler) {
  struct sigaction Action;
  memset(&Action, 0, sizeof(Action));
  Action.sa_sigaction = Handler;
  Action.sa_flags = SA_SIGINFO | SA_RESTART;
  asynchronousSignals(Action.sa_mask);
  // And SIGTRAP, which the clock events that sample kernel mode send: one
  // that comes while the handler runs waits for it to return, instead of
  // taking a second signal frame on the thread's stack (a trap of the
  // handler's own, which it has none of, the kernel unblocks anyway).
  sigaddset(&Action.sa_mask, SIGTRAP);
  callSigaction(Signal, &Action, nullptr);
  bindHandlerCalls();
}

void installFaultSignalHandler(int Signal, SignalHandler Handler, int Flags,
                               struct sigaction *Previous) {
  struct sigaction Action;
  memset(&Action, 0, sizeof(Action));
  Action.sa_sigaction = Handler;
  Action.sa_flags = Flags | SA_SIGINFO;
  asynchronousSignals(Action.sa_mask);
  callSigaction(Signal, &Action, Previous);
  bindHandlerCalls();
}

void blockAsynchronousSignals() {
  sigset_t Set;
  asynchronousSignals(Set); // not the C library's own (sigfillset)
  syscall(SYS_rt_sigprocmask, SIG_BLOCK, &Set, nullptr, _NSIG / 8);
}

void installSimpleSignalHandler(int Signal, void (*Handler)(int), int Flags) {
  struct sigaction Action;
  memset(&Action, 0, sizeof(Action));
  Action.sa_handler = Handler;
  Action.sa_flags = Flags;
  sigemptyset(&Action.sa_mask);
  callSigaction(Signal, &Action, nullptr);
}

void currentSignalAction(int Signal, struct sigaction &Out) {
  callSigaction(Signal, nullptr, &Out);
}

void restoreDefaultAction(int Signal) {
  struct sigaction Default;
  memset(&Default, 0, sizeof(Default));
  Default.sa_handler = SIG_DFL;
  callSigaction(Signal, &Default, nullptr);
}

void maskSignalsForHandler(const void *Context, const struct sigaction &Action,
                           int Signal) {
  sigset_t Mask = static_cast<const ucontext_t *>(Context)->uc_sigmask;
  sigorset(&Mask, &Mask, &Action.sa_mask);
  if (!(Action.sa_flags & SA_NODEFER))
    sigaddset(&Mask, Signal);
  // The raw system call: the kernel's signal set, which is smaller than
  // glibc's sigset_t.
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &Mask, nullptr, _NSIG / 8);
}

void unblockSignals(const int *Signals, int Count) {
  // The kernel's signal set (the raw system call takes no glibc sigset_t).
  uint64_t Set = 0;
  for (int I = 0; I < Count; ++I)
    Set |= uint64_t(1) << (Signals[I] - 1);
  syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &Set, nullptr, sizeof(Set));
}

void raiseInThisThread(int Signal) {
  syscall(SYS_tgkill, getpid(), currentThreadId(), Signal);
}

void resendToThisThread(int Signal, const siginfo_t *Info) {
  // The kernel lets a process queue any code, a fault's included, to its
  // own threads; the copy keeps Info the kernel's.
  siginfo_t Copy;
  memcpy(&Copy, Info, sizeof(Copy));
  if (syscall(SYS_rt_tgsigqueueinfo, getpid(), currentThreadId(), Signal,
              &Copy) != 0)
    raiseInThisThread(Signal);
}

unsigned terminalColumns(int Fd) {
  struct winsize Size;
  if (ioctl(Fd, TIOCGWINSZ, &Size) != 0)
    return 0;
  return Size.ws_col ? Size.ws_col : 80;
}

void signalThread(int Tid, int Signal) {
  syscall(SYS_tgkill, getpid(), Tid, Signal);
}

void sleepMilliseconds(int Ms) {
  struct timespec T = {Ms / 1000, long(Ms % 1000) * 1000000L};
  syscall(SYS_nanosleep, &T, nullptr);
}

void yieldThread() { syscall(SYS_sched_yield); }

/// The CPU clock of thread Tid, as the kernel encodes it (what glibc's
/// pthread_getcpuclockid computes from the thread's tid): CLOCK_THREAD_-
/// CPUTIME_ID would be the clock of the *calling* thread.
static clockid_t threadCPUClock(int Tid) {
  constexpr clockid_t kPerThread = 4, kSchedClock = 2;
  return clockid_t((~unsigned(Tid)) << 3) | kPerThread | kSchedClock;
}

static int createTimerFor(clockid_t Clock, int Tid, int Signal, int Cookie) {
  struct sigevent E;
  memset(&E, 0, sizeof(E));
  E.sigev_value.sival_int = Cookie;
  E.sigev_signo = Signal;
  E.sigev_notify = SIGEV_THREAD_ID;
  E._sigev_un._tid = Tid;
  // The raw system call: glibc's timer_create allocates, and it is not
  // async-signal-safe.
  int Id = -1;
  if (syscall(SYS_timer_create, Clock, &E, &Id) != 0)
    return -1;
  return Id;
}

int createThreadCPUTimer(int Tid, int Signal, int Cookie) {
  return createTimerFor(threadCPUClock(Tid), Tid, Signal, Cookie);
}

int createProcessCPUTimer(int Tid, int Signal, int Cookie) {
  return createTimerFor(CLOCK_PROCESS_CPUTIME_ID, Tid, Signal, Cookie);
}

/// The first descriptor number clock events take, from the descriptor
/// limit: above FD_SETSIZE where the limit allows (out of select()'s way
/// and of the loops that close descriptors 3 to 1023), else in the limit's
/// last quarter. 0 if the limit leaves no room.
static long clockEventBase(long &Limit) {
  struct rlimit L;
  if (syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, nullptr, &L) != 0)
    return 0;
  Limit = L.rlim_cur == RLIM_INFINITY || L.rlim_cur > (1u << 20)
              ? long(1) << 20
              : long(L.rlim_cur);
  if (Limit < 64)
    return 0;
  return Limit >= 2048 ? 1024 : Limit * 3 / 4;
}

unsigned clockEventBudget() {
  long Limit = 0;
  long Base = clockEventBase(Limit);
  if (!Base)
    return 0;
  long Budget = (Limit - Base) / 2;
  return Budget > 4096 ? 4096u : unsigned(Budget);
}

/// The sig_data of the runtime's clock events that send SIGTRAP: their
/// signals are told from the program's SIGTRAPs by it.
constexpr uint64_t kClockEventTrapCookie = 0x70636d6170u; // "pcmap"

/// The sig_data of the process's clock event (openProcessClockEvent).
constexpr uint64_t kProcessClockEventTrapCookie = 0x70636d617069u; // "pcmapi"

/// A task-clock event's attributes (disabled; armClockEvent sets the
/// period).
static void clockEventAttributes(bool Kernel, struct perf_event_attr &A) {
  memset(&A, 0, sizeof(A));
  A.size = sizeof(A);
  A.type = PERF_TYPE_SOFTWARE;
  A.config = PERF_COUNT_SW_TASK_CLOCK;
  A.sample_period = 1000000;
  A.disabled = 1;
  A.exclude_hv = 1;
  // User mode only: what perf_event_paranoid 2 allows without privileges.
  // Its signal then comes from a period that ended in user mode, never
  // inside a system call (no EINTR).
  A.exclude_kernel = !Kernel;
  if (Kernel) {
    // Kernel mode too: a period that ends in a system call queues its
    // signal for the return to user mode (task work), which wakes no
    // sleeping call, as a fasync signal would.
    A.sigtrap = 1;
    A.remove_on_exec = 1; // the kernel requires it with sigtrap
    A.sig_data = kClockEventTrapCookie;
  }
}

/// Opens the event A describes on thread Tid (0: the caller), its
/// descriptor placed at clockEventBase or above, and its id: false if
/// either fails (nothing left open).
static bool openClockEvent(const struct perf_event_attr &A, int Tid,
                           ClockEvent &E) {
  E = {-1, 0};
  long Limit = 0;
  long Base = clockEventBase(Limit);
  if (!Base)
    return false;
  int Fd =
      int(syscall(SYS_perf_event_open, &A, Tid, -1, -1, PERF_FLAG_FD_CLOEXEC));
  if (Fd < 0)
    return false;
  int High = fcntl(Fd, F_DUPFD_CLOEXEC, int(Base));
  close(Fd);
  if (High < 0)
    return false;
  uint64_t Id = 0;
  if (ioctl(High, PERF_EVENT_IOC_ID, &Id) != 0) {
    close(High);
    return false;
  }
  E = {High, Id};
  return true;
}

bool openThreadClockEvent(int Tid, int Signal, bool Kernel, ClockEvent &E) {
  struct perf_event_attr A;
  clockEventAttributes(Kernel, A);
  if (!openClockEvent(A, Tid, E))
    return false;
  int High = E.Fd;
  bool Ok = true;
  if (!Kernel) {
    struct f_owner_ex Owner = {F_OWNER_TID, Tid};
    Ok = fcntl(High, F_SETOWN_EX, &Owner) == 0 &&
         fcntl(High, F_SETSIG, Signal) == 0 &&
         fcntl(High, F_SETFL, O_ASYNC) == 0;
  }
  if (!Ok) {
    close(High);
    E = {-1, 0};
    return false;
  }
  return true;
}

bool openProcessClockEvent(long Nanos, ClockEvent &E) {
  E = {-1, 0};
  if (Nanos <= 0)
    return false;
  struct perf_event_attr A;
  clockEventAttributes(/*Kernel=*/true, A);
  A.sample_period = uint64_t(Nanos);
  // The threads the calling thread starts, and theirs, get a copy (not a
  // forked child: inherit_thread). The kernel switches between two threads
  // that hold copies of one event by swapping them, without stopping and
  // starting their timers.
  A.inherit = 1;
  A.inherit_thread = 1;
  A.sig_data = kProcessClockEventTrapCookie;
  return openClockEvent(A, 0, E);
}

void switchProcessClockEvent(const ClockEvent &E, bool On) {
  // Enabling and disabling reach the threads' copies; a period would not.
  if (E.Fd >= 0)
    ioctl(E.Fd, On ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

/// Whether /proc/self/status names a tracer (TracerPid not 0).
static bool isTraced() {
  int Fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  char Buffer[4096];
  ssize_t N = read(Fd, Buffer, sizeof(Buffer) - 1);
  close(Fd);
  if (N <= 0)
    return false;
  Buffer[N] = 0;
  const char *P = strstr(Buffer, "TracerPid:");
  if (!P)
    return false;
  P += strlen("TracerPid:");
  while (*P == ' ' || *P == '\t')
    ++P;
  return *P >= '1' && *P <= '9';
}

// ThreadSanitizer's runtime, in a program built with it.
extern "C" void __tsan_init() __attribute__((weak));

bool kernelClockEventsAllowed() {
  if (isTraced())
    return false;
  // ThreadSanitizer takes a SIGTRAP for a synchronous signal and calls the
  // handler at once, even inside its own runtime (its user-mode events'
  // signals it holds back to a safe point): the handler's first atomic
  // then waited for a lock the interrupted code held, at exit (a
  // deadlock in the TSan build's rt/tracer-service-thread.c).
  if (&__tsan_init)
    return false;
  struct perf_event_attr A;
  clockEventAttributes(true, A);
  int Fd =
      int(syscall(SYS_perf_event_open, &A, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
  if (Fd < 0)
    return false;
  close(Fd);
  return true;
}

void armClockEvent(const ClockEvent &E, long Nanos) {
  if (E.Fd < 0)
    return;
  if (Nanos <= 0) {
    ioctl(E.Fd, PERF_EVENT_IOC_DISABLE, 0);
    return;
  }
  uint64_t Period = uint64_t(Nanos);
  ioctl(E.Fd, PERF_EVENT_IOC_PERIOD, &Period);
  ioctl(E.Fd, PERF_EVENT_IOC_ENABLE, 0);
}

/// Whether E's descriptor still names E: only a perf event answers
/// PERF_EVENT_IOC_ID, and only this one with this id; any other file the
/// program opened under the number is its.
static bool stillClockEvent(const ClockEvent &E) {
  if (E.Fd < 0)
    return false;
  struct stat St;
  uint64_t Id = 0;
  // The ioctl is only tried on an anonymous inode (no file type), which a
  // device's driver, say, never is.
  return fstat(E.Fd, &St) == 0 && (St.st_mode & S_IFMT) == 0 &&
         ioctl(E.Fd, PERF_EVENT_IOC_ID, &Id) == 0 && Id == E.Id;
}

void closeClockEvent(ClockEvent &E) {
  if (stillClockEvent(E))
    close(E.Fd);
  E = {-1, 0};
}

bool readClockEvent(const ClockEvent &E, uint64_t &Nanos) {
  // The event's read format is the count alone (read_format 0).
  uint64_t Count;
  if (!stillClockEvent(E) || read(E.Fd, &Count, sizeof(Count)) != 8)
    return false;
  Nanos = Count;
  return true;
}

bool isClockEventSignal(const siginfo_t *Info) {
  return Info->si_code == POLL_IN || isClockEventTrap(Info);
}

/// The sig_data of a perf event's SIGTRAP (0 for any other signal).
static uint64_t perfTrapData(const siginfo_t *Info) {
  if (Info->si_signo != SIGTRAP || Info->si_code != TRAP_PERF)
    return 0;
  // si_perf_data, which the C library's siginfo_t does not name: the
  // word after si_addr (the kernel's _sigfault._perf._data).
  uint64_t Data;
  memcpy(&Data, reinterpret_cast<const char *>(&Info->si_addr) + sizeof(void *),
         sizeof(Data));
  return Data;
}

bool isClockEventTrap(const siginfo_t *Info) {
  uint64_t Data = perfTrapData(Info);
  return Data == kClockEventTrapCookie || Data == kProcessClockEventTrapCookie;
}

bool isProcessClockEventTrap(const siginfo_t *Info) {
  return perfTrapData(Info) == kProcessClockEventTrapCookie;
}

int waitForSignal(int Signal) {
  sigset_t Set;
  sigemptyset(&Set);
  sigaddset(&Set, Signal);
  for (;;) {
    siginfo_t Info;
    if (callSigwaitinfo(&Set, &Info) == Signal)
      return Info.si_code == SI_TIMER ? Info.si_value.sival_int : 0;
    if (errno != EINTR)
      return -1;
  }
}

void armTimer(int Timer, long Nanos, long FirstNanos) {
  struct itimerspec Spec;
  Spec.it_interval.tv_sec = Nanos / 1000000000L;
  Spec.it_interval.tv_nsec = Nanos % 1000000000L;
  Spec.it_value = Spec.it_interval;
  if (Nanos && FirstNanos) {
    Spec.it_value.tv_sec = FirstNanos / 1000000000L;
    Spec.it_value.tv_nsec = FirstNanos % 1000000000L;
  }
  syscall(SYS_timer_settime, Timer, 0, &Spec, nullptr);
}

void deleteTimer(int Timer) { syscall(SYS_timer_delete, Timer); }

namespace {
/// The kernel's getdents64 record.
struct LinuxDirent64 {
  uint64_t Ino;
  int64_t Off;
  unsigned short RecLen;
  unsigned char Type;
  char Name[1];
};
} // namespace

int openThreadProcFile(int Tid, const char *Name) {
  char Path[96] = "/proc/self/task/";
  size_t N = strlen(Path);
  char Digits[16];
  size_t D = 0;
  for (unsigned V = unsigned(Tid); D == 0 || V; V /= 10)
    Digits[D++] = char('0' + V % 10);
  while (D && N + 1 < sizeof(Path))
    Path[N++] = Digits[--D];
  Path[N++] = '/';
  for (const char *P = Name; *P && N + 1 < sizeof(Path);)
    Path[N++] = *P++;
  Path[N] = 0;
  int Fd = int(syscall(SYS_openat, AT_FDCWD, Path, O_RDONLY | O_CLOEXEC));
  long Limit = 0;
  long Base = Fd < 0 ? 0 : clockEventBase(Limit);
  if (!Base)
    return Fd;
  int High = fcntl(Fd, F_DUPFD_CLOEXEC, int(Base));
  if (High < 0)
    return Fd;
  close(Fd);
  return High;
}

size_t descriptorTarget(long Fd, char *Out, size_t Size) {
  if (!Size)
    return 0;
  char Path[48] = "/proc/self/fd/";
  size_t N = strlen(Path);
  char Digits[24];
  size_t D = 0;
  for (unsigned long V = (unsigned long)Fd; D == 0 || V; V /= 10)
    Digits[D++] = char('0' + V % 10);
  while (D && N + 1 < sizeof(Path))
    Path[N++] = Digits[--D];
  Path[N] = 0;
  long Len = syscall(SYS_readlinkat, AT_FDCWD, Path, Out, Size - 1);
  Out[Len > 0 ? Len : 0] = 0;
  return Len > 0 ? size_t(Len) : 0;
}

bool forEachThread(void (*Visit)(int Tid, void *Data), void *Data) {
  // getdents64 rather than opendir, which allocates.
  int Fd = int(syscall(SYS_openat, AT_FDCWD, "/proc/self/task",
                       O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (Fd < 0)
    return false;
  alignas(8) char Buf[4096];
  for (;;) {
    long N = syscall(SYS_getdents64, Fd, Buf, sizeof(Buf));
    if (N <= 0)
      break;
    for (long Pos = 0; Pos < N;) {
      auto *D = reinterpret_cast<LinuxDirent64 *>(Buf + Pos);
      Pos += D->RecLen;
      int Tid = 0;
      for (const char *P = D->Name; *P >= '0' && *P <= '9'; ++P)
        Tid = Tid * 10 + (*P - '0');
      if (Tid > 0)
        Visit(Tid, Data);
    }
  }
  close(Fd);
  return true;
}

bool writeToPipe(int Fd, const char *Data, size_t Size) {
  // SIGPIPE is blocked for this thread while it writes; one the write raises
  // stays pending and is taken here, one that was pending before is left.
  sigset_t Pipe, Saved, Pending;
  sigemptyset(&Pipe);
  sigaddset(&Pipe, SIGPIPE);
  sigpending(&Pending);
  bool WasPending = sigismember(&Pending, SIGPIPE);
  callPthreadSigmask(SIG_BLOCK, &Pipe, &Saved);
  int SavedErrno = errno;
  bool Ok = writeFully(Fd, Data, Size);
  if (!Ok && errno == EPIPE && !WasPending) {
    const timespec Zero = {0, 0};
    while (callSigtimedwait(&Pipe, nullptr, &Zero) < 0 && errno == EINTR) {
    }
  }
  callPthreadSigmask(SIG_SETMASK, &Saved, nullptr);
  errno = SavedErrno;
  return Ok;
}

long readWithTimeout(int Fd, char *Buffer, size_t Size, int TimeoutMs) {
  pollfd P = {Fd, POLLIN, 0};
  int R;
  do
    R = poll(&P, 1, TimeoutMs);
  while (R < 0 && errno == EINTR);
  if (R <= 0)
    return -1;
  ssize_t N;
  do
    N = read(Fd, Buffer, Size);
  while (N < 0 && errno == EINTR);
  return long(N);
}

int waitReadable(int Fd, int TimeoutMs) {
  pollfd P = {Fd, POLLIN, 0};
  int R;
  do
    R = poll(&P, 1, TimeoutMs);
  while (R < 0 && errno == EINTR);
  return R < 0 ? -1 : R > 0 ? 1 : 0;
}

void reapChild(int Pid, bool Kill) {
  if (Pid <= 0)
    return;
  if (Kill)
    kill(Pid, SIGKILL);
  int Status, Saved = errno;
  while (waitpid(Pid, &Status, __WALL) < 0 && errno == EINTR) {
  }
  errno = Saved;
}

void closeFd(int Fd) {
  if (Fd >= 0)
    close(Fd);
}

bool isExecutable(const char *Path) {
  return Path && *Path && access(Path, X_OK) == 0;
}

} // namespace rt
} // namespace pcmap
