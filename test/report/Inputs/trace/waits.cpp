// Futex words of a C++ program for pcmap-report trace's wait names and
// kinds (trace-waits-names.test): a std::mutex member of a namespace's
// object, locked by std::lock_guard (inlined at -O1 down to the C
// library's pthread_mutex_lock), and a std::condition_variable. Run, it
// prints where each is in the module and the paths of the C and C++
// libraries.
#include <condition_variable>
#include <dlfcn.h>
#include <link.h>
#include <mutex>
#include <cstdint>
#include <cstdio>

namespace app {
struct Registry {
  long count = 0;
  std::mutex mu;
};
Registry registry;
std::mutex changed_mu;
std::condition_variable changed;
bool done = true;
} // namespace app

extern "C" __attribute__((noinline)) void lock_registry() {
  std::lock_guard<std::mutex> Guard(app::registry.mu);
  ++app::registry.count;
}

extern "C" __attribute__((noinline)) void wait_changed() {
  std::unique_lock<std::mutex> Lock(app::changed_mu);
  app::changed.wait(Lock, [] { return app::done; });
}

static int firstObject(dl_phdr_info *Info, size_t, void *Bias) {
  *static_cast<uintptr_t *>(Bias) = Info->dlpi_addr;
  return 1; // the executable comes first
}

static void printPath(const char *Name, const char *Symbol) {
  Dl_info Info;
  void *Address = dlsym(RTLD_DEFAULT, Symbol);
  if (Address && dladdr(Address, &Info))
    std::printf("%s path %s\n", Name, Info.dli_fname);
}

int main() {
  uintptr_t Bias = 0;
  dl_iterate_phdr(firstObject, &Bias);
  lock_registry();
  wait_changed();
  std::printf("registry.mu module 0x%lx\n",
              (unsigned long)(uintptr_t(&app::registry.mu) - Bias));
  std::printf("changed module 0x%lx\n",
              (unsigned long)(uintptr_t(&app::changed) + 8 - Bias));
  printPath("libc", "pthread_mutex_lock");
  printPath("libstdcxx",
            "_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE");
  return 0;
}
