/* Finds the atomic of lib_bump, in the shared library. */
#include <pcmap/pcmap.h>
#include <stdio.h>
#include <string.h>

int lib_bump(int *p);

int main(void) {
  struct pcmap_function f;
  if (!pcmap_lookup_function((uintptr_t)&lib_bump, &f)) {
    printf("lib_bump: no function\n");
    return 1;
  }
  int n = 0;
  lib_bump(&n);
  printf("lib_bump: %u atomic(s), in %s\n", f.num_atomics,
         strstr(f.module_path, "libbump.so") ? "libbump.so" : f.module_path);
  return 0;
}
