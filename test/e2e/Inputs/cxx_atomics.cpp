// C++ std::atomic of several sizes and orders, a template, a class, threads,
// fences and a 16-byte std::atomic (libatomic: link with -latomic). Shared by
// several tests in test/e2e:
//   OUT    the program's output
//   DUMP   `pcmap_elf.py dump` of any build at any optimisation level. At -O0
//          the atomics are in libstdc++'s inline member functions (which
//          take the order at run time and so hold one atomic per order), so
//          atomics are matched by descriptor, and functions by name.
//   NOSIG  what must not be in the table

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#define NOINLINE __attribute__((noinline))

namespace {
struct Big {
  long a, b;
};
} // namespace

std::atomic<bool> ready{false};
std::atomic<std::uint8_t> u8{0};
std::atomic<std::uint16_t> u16{0};
std::atomic<std::uint32_t> u32{0};
std::atomic<std::uint64_t> u64{0};
std::atomic<float> f32{0.0f};
std::atomic<Big> big{Big{0, 0}};
volatile std::atomic<int> vint{0};

// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics{{(\|has-atomics)?}} name main{{$}}
// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics name cxx_no_atomics{{$}}
// NOSIG-NOT: cxx_no_atomics+
extern "C" NOINLINE int cxx_no_atomics(int x) { return x * 5 - 2; }

// DUMP-DAG: kind=load size=1 order=acquire{{$}}
// DUMP-DAG: kind=store size=1 order=release{{$}}
extern "C" NOINLINE bool cxx_flag(bool set) {
  if (set)
    ready.store(true, std::memory_order_release);
  return ready.load(std::memory_order_acquire);
}

// DUMP-DAG: kind=rmw size=1 order=relaxed op=add{{$}}
// DUMP-DAG: kind=rmw size=2 order=seq_cst op=or{{$}}
// DUMP-DAG: kind=rmw size=4 order=release op=and{{$}}
// DUMP-DAG: kind=rmw size=8 order=acq_rel op=xor{{$}}
// DUMP-DAG: kind=rmw size=4 order=seq_cst op=xchg{{$}}
// DUMP-DAG: kind=load size=8 order=seq_cst{{$}}
extern "C" NOINLINE std::uint64_t cxx_rmw(std::uint64_t v) {
  std::uint64_t r = u8.fetch_add(std::uint8_t(v), std::memory_order_relaxed);
  r += u16.fetch_or(std::uint16_t(v));
  r += u32.fetch_and(0xf0f0, std::memory_order_release);
  r += u64.fetch_xor(v, std::memory_order_acq_rel);
  r += u32.exchange(std::uint32_t(v));
  return r + u64.load();
}

// DUMP-DAG: kind=cmpxchg size=4 order=acq_rel failure=acquire weak{{$}}
// DUMP-DAG: kind=cmpxchg size=8 order=seq_cst failure=seq_cst{{$}}
// DUMP-DAG: kind=cmpxchg size=2 order=release failure=relaxed{{$}}
extern "C" NOINLINE int cxx_cas(std::uint32_t from, std::uint32_t to) {
  std::uint32_t e = from;
  int n = 0;
  while (!u32.compare_exchange_weak(e, to, std::memory_order_acq_rel,
                                    std::memory_order_acquire) &&
         e == from)
    ++n;
  std::uint64_t e64 = 0;
  n += u64.compare_exchange_strong(e64, 0) ? 10 : 20;
  std::uint16_t e16 = 0x7777;
  n += u16.compare_exchange_strong(e16, 1, std::memory_order_release,
                                   std::memory_order_relaxed)
           ? 100
           : 200;
  return n;
}

// libstdc++'s atomic<float>::fetch_add is a load and a compare-exchange
// loop; the GNU builtin on a float is an atomicrmw fadd (also a loop).
// DUMP-DAG: kind=rmw size=4 order=seq_cst op=fadd{{$}}
float plainf;
extern "C" NOINLINE float cxx_float(float v) {
  return f32.fetch_add(v) + __atomic_fetch_add(&plainf, v, __ATOMIC_SEQ_CST);
}

// DUMP-DAG: kind=fence order=seq_cst{{$}}
// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics name cxx_signal_fence{{$}}
// NOSIG-NOT: cxx_signal_fence+
extern "C" NOINLINE void cxx_fence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
extern "C" NOINLINE void cxx_signal_fence() {
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

// DUMP-DAG: kind=store size=4 order=relaxed volatile{{$}}
// DUMP-DAG: kind=rmw size=4 order=seq_cst op=add volatile{{$}}
extern "C" NOINLINE int cxx_volatile(int v) {
  vint.store(v, std::memory_order_relaxed);
  return vint.fetch_add(1);
}

// 16 bytes: libatomic calls. Covered; the program must work.
// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics{{(\|has-atomics)?}} name cxx_big{{$}}
extern "C" NOINLINE long cxx_big(long v) {
  Big old = big.exchange(Big{v, v + 1});
  Big now = big.load(std::memory_order_acquire);
  return old.a + now.b;
}

// A template (linkonce_odr, COMDAT) and a class.
// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics|has-atomics name _Z13tmpl_exchangeImET_RSt6atomicIS0_ES0_{{$}}
// DUMP-DAG: kind=rmw size=8 order=acquire op=xchg{{$}}
template <typename T>
NOINLINE T tmpl_exchange(std::atomic<T> &a, T v) {
  return a.exchange(v, std::memory_order_acquire);
}

// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics|has-atomics name _ZN7Counter3incEv{{$}}
// DUMP-DAG: function 0x{{[0-9a-f]+}} size {{[1-9][0-9]*}} features atomics|has-atomics name _ZNK7Counter3getEv{{$}}
// DUMP-DAG: kind=rmw size=8 order=relaxed op=add{{$}}
// DUMP-DAG: kind=load size=8 order=acquire{{$}}
class Counter {
public:
  NOINLINE void inc();
  NOINLINE long get() const;

private:
  std::atomic<long> N{0};
};
void Counter::inc() { N.fetch_add(1, std::memory_order_relaxed); }
long Counter::get() const { return N.load(std::memory_order_acquire); }

Counter counter;

// OUT: cxx: flag 1 rmw 37 cas 110 210 float 3.5 volatile 0 big 4 4 plain 4 tmpl 9
// OUT-NEXT: cxx: threads 40000
// OUT-NEXT: cxx: done
int main(int argc, char **) {
  unsigned one = unsigned(argc); // 1, unknown to the compiler
  std::printf("cxx: flag %d", int(cxx_flag(one == 1)));
  u8 = 1;
  u16 = 1;
  u32 = 0x12;
  u64 = 0;
  // 1 + 1 + 0x12 + 0 + (0x12 & 0xf0f0) + 1
  std::printf(" rmw %llu", (unsigned long long)cxx_rmw(one));
  u32 = 2;
  u64 = 0;
  u16 = 0x7777;
  std::printf(" cas %d", cxx_cas(2, 5)); // 0 + 10 + 100
  std::printf(" %d", cxx_cas(5, 6));     // 0 + 10 + 200
  f32 = 1.5f;
  cxx_float(2.0f);
  std::printf(" float %.1f", f32.load());
  cxx_fence();
  cxx_signal_fence();
  std::printf(" volatile %d", cxx_volatile(int(one) - 1));
  std::printf(" big %ld", cxx_big(3 * long(one))); // 0 + 4
  std::printf(" %ld", cxx_big(0));                  // 3 + 1
  std::printf(" plain %d", cxx_no_atomics(int(one)) + 1);
  u64 = 9;
  std::printf(" tmpl %lu\n",
              (unsigned long)tmpl_exchange<std::uint64_t>(u64, 8 * one));

  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < 10000; ++i)
        counter.inc();
    });
  for (std::thread &t : threads)
    t.join();
  std::printf("cxx: threads %ld\ncxx: done\n", counter.get());
  return 0;
}

// NOSIG: summary:
