// Prints the functions the pcmap runtime registered for this executable:
// "function <file address> <size> <atomics>", one per line.
#include <pcmap/pcmap.h>
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv);

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  uintptr_t self = (uintptr_t)&main;
  struct pcmap_module m;
  for (size_t i = 0; pcmap_module_at(i, &m); ++i) {
    if (self < m.text_start || self >= m.text_end)
      continue;
    struct pcmap_function f;
    for (size_t j = 0; pcmap_function_at(m.text_start, j, &f); ++j)
      printf("function %#lx %lu %u\n", (unsigned long)(f.start - f.module_bias),
             (unsigned long)f.size, f.num_atomics);
    return 0;
  }
  fprintf(stderr, "runtime_dump: no module holds main\n");
  return 1;
}
