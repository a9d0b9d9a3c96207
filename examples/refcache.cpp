//===- refcache.cpp - pcmap's demo: a reference-counted cache -------------===//
//
// Worker threads look values up in a small cache of reference-counted
// entries. A lookup takes a reference (a compare-and-swap loop on the
// entry's count), reads the value and drops the reference; misses load the
// value and publish a new entry, evicting the old one, which is retired when
// its last reference goes. A lookup reads an entry's key and count before it
// holds a reference, so a retired entry's memory is unmapped only at a
// quiescent point, when no lookup is in flight (here: when the cache goes).
// Every lookup also bumps one shared statistics counter: the contended
// atomic the tracer should find.
//
//   refcache            run the workload and print a checksum
//   refcache --lookups N
//                       the same with N lookups per thread (default
//                       10,000,000): a longer run, for benchmarks
//   refcache --bug      run the planted bug: a lookup that forgets to take a
//                       reference reads an entry, another thread evicts it,
//                       the cache reclaims it at what it takes for a
//                       quiescent point, and dropping the reference the
//                       reader never took writes to the unmapped entry: a
//                       fault inside an atomic
//
// Build: pcmap-clang++ -O2 -g -pthread -fsanitize-metadata=all refcache.cpp
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <thread>
#include <vector>

namespace {

constexpr unsigned kSlots = 512;
constexpr unsigned kThreads = 4;
constexpr uint64_t kDefaultLookupsPerThread = 10000000;

/// One cached value. Each entry has its own page, so that touching an entry
/// after it is freed faults instead of corrupting a neighbour.
struct Entry {
  std::atomic<uint32_t> Refs;
  uint32_t Key;
  uint64_t Value;
  Entry *NextRetired; // the retired list, once Refs has reached 0
};

Entry *newEntry(uint32_t Key, uint64_t Value) {
  void *Page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Page == MAP_FAILED)
    return nullptr;
  auto *E = static_cast<Entry *>(Page);
  E->Refs.store(1, std::memory_order_relaxed); // the cache's reference
  E->Key = Key;
  E->Value = Value;
  return E;
}

class Cache {
public:
  ~Cache() {
    for (auto &S : Slots)
      if (Entry *E = S.exchange(nullptr))
        release(E);
    reclaim();
  }

  /// The entry for Key with a reference taken, or null on a miss.
  __attribute__((noinline)) Entry *acquire(uint32_t Key) {
    Lookups.fetch_add(1, std::memory_order_seq_cst); // shared statistics
    for (;;) {
      Entry *E = Slots[Key % kSlots].load(std::memory_order_acquire);
      if (!E || E->Key != Key)
        return nullptr;
      uint32_t Refs = E->Refs.load(std::memory_order_relaxed);
      // Take a reference unless the entry is already dying.
      while (Refs != 0)
        if (E->Refs.compare_exchange_weak(Refs, Refs + 1,
                                          std::memory_order_acquire,
                                          std::memory_order_relaxed))
          return E;
    }
  }

  /// The planted bug: like acquire(), but it takes no reference.
  __attribute__((noinline)) Entry *peek(uint32_t Key) {
    Entry *E = Slots[Key % kSlots].load(std::memory_order_acquire);
    return E && E->Key == Key ? E : nullptr;
  }

  /// Drops a reference; the last one retires the entry.
  __attribute__((noinline)) void release(Entry *E) {
    if (E->Refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      retire(E);
  }

  /// Unmaps the retired entries. Only at a quiescent point: a lookup in
  /// flight may be reading a retired entry it has not yet found dying.
  void reclaim() {
    Entry *E = Retired.exchange(nullptr, std::memory_order_acquire);
    while (E) {
      Entry *Next = E->NextRetired;
      munmap(E, 4096);
      E = Next;
    }
  }

  /// Publishes a new entry for Key, evicting the slot's old one.
  __attribute__((noinline)) void insert(uint32_t Key, uint64_t Value) {
    Entry *E = newEntry(Key, Value);
    if (!E)
      return;
    if (Entry *Old = Slots[Key % kSlots].exchange(E, std::memory_order_acq_rel))
      release(Old);
  }

  uint64_t lookups() const { return Lookups.load(); }

private:
  /// Pushes a dead entry on the retired list. Entries are only pushed while
  /// lookups run, and taken all at once by reclaim(), so there is no ABA.
  __attribute__((noinline)) void retire(Entry *E) {
    Entry *Head = Retired.load(std::memory_order_relaxed);
    do
      E->NextRetired = Head;
    while (!Retired.compare_exchange_weak(Head, E, std::memory_order_release,
                                          std::memory_order_relaxed));
  }

  std::atomic<Entry *> Slots[kSlots] = {};
  std::atomic<uint64_t> Lookups{0};
  std::atomic<Entry *> Retired{nullptr};
};

uint64_t load(uint32_t Key) { return uint64_t(Key) * 2654435761u; }

uint64_t worker(Cache &C, unsigned Seed, uint64_t Lookups) {
  uint64_t Sum = 0;
  uint32_t X = Seed * 2654435761u + 1;
  for (uint64_t I = 0; I < Lookups; ++I) {
    X ^= X << 13;
    X ^= X >> 17;
    X ^= X << 5;
    // Mostly a few hot keys, sometimes any of kSlots.
    uint32_t Key = (X & 7) ? X % 8 : X % kSlots;
    if (Entry *E = C.acquire(Key)) {
      Sum += E->Value;
      C.release(E);
    } else {
      uint64_t V = load(Key);
      C.insert(Key, V);
      Sum += V;
    }
  }
  return Sum;
}

int runWorkload(uint64_t Lookups) {
  Cache C;
  std::vector<std::thread> Threads;
  std::vector<uint64_t> Sums(kThreads);
  for (unsigned T = 0; T < kThreads; ++T)
    Threads.emplace_back(
        [&C, &Sums, T, Lookups] { Sums[T] = worker(C, T + 1, Lookups); });
  for (auto &T : Threads)
    T.join();
  uint64_t Sum = 0;
  for (uint64_t S : Sums)
    Sum += S;
  std::printf("refcache: %llu lookups on %u threads, checksum %016llx\n",
              (unsigned long long)C.lookups(), kThreads,
              (unsigned long long)Sum);
  return 0;
}

int runBug() {
  Cache C;
  C.insert(7, load(7));
  // A reader that forgets to take a reference...
  Entry *Stale = C.peek(7);
  std::printf("refcache: reader holds entry %p without a reference\n",
              static_cast<void *>(Stale));
  // ...another thread replaces the entry, whose last reference goes; no
  // lookup is in flight, the cache believes, and it unmaps the entry...
  std::thread([&C] { C.insert(7 + kSlots, load(7 + kSlots)); }).join();
  C.reclaim();
  std::printf("refcache: entry evicted and unmapped; the reader now drops "
              "the reference it never took\n");
  std::fflush(stdout);
  // ...and the reader drops the reference it never had.
  C.release(Stale);
  std::printf("refcache: not reached\n");
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && !std::strcmp(argv[1], "--bug"))
    return runBug();
  uint64_t Lookups = kDefaultLookupsPerThread;
  if (argc > 2 && !std::strcmp(argv[1], "--lookups")) {
    char *End = nullptr;
    Lookups = std::strtoull(argv[2], &End, 10);
    if (!Lookups || *End) {
      std::fprintf(stderr, "refcache: bad --lookups '%s'\n", argv[2]);
      return 2;
    }
  } else if (argc > 1) {
    std::fprintf(stderr, "usage: refcache [--bug | --lookups N]\n");
    return 2;
  }
  return runWorkload(Lookups);
}
