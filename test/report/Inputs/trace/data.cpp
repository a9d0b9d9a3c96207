// C++ data for pcmap-report trace's names of data
// (trace-data-names.test): a namespace, a derived class with a
// std::atomic member, an anonymous union, a static member, a template.
// Run, it prints each object's offset in the module (its address less the
// load bias), as Inputs/trace/data.c does.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <link.h>

namespace app {
struct Base {
  long refs;
};
struct Node : Base {
  std::atomic<long> count;
  union {
    int id;
    float weight;
  };
};
struct Holder {
  static long shared;
};
template <typename T> struct Box { T value[2]; };

Node node;
std::atomic<long> counter;
long Holder::shared;
Box<int> box;
} // namespace app

static int firstObject(dl_phdr_info *Info, size_t, void *Bias) {
  *static_cast<uintptr_t *>(Bias) = Info->dlpi_addr;
  return 1; // the executable comes first
}

static void place(const char *Name, const void *Address, uintptr_t Bias) {
  std::printf(
      "%s module 0x%lx\n", Name,
      static_cast<unsigned long>(reinterpret_cast<uintptr_t>(Address) - Bias));
}

int main() {
  uintptr_t Bias = 0;
  dl_iterate_phdr(firstObject, &Bias);
  place("node", &app::node, Bias);
  place("counter", &app::counter, Bias);
  place("shared", &app::Holder::shared, Bias);
  place("box", &app::box, Bias);
  place("main", reinterpret_cast<const void *>(&main), Bias);
  return 0;
}
