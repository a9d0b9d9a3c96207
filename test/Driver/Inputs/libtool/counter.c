#include <pcmap/pcmap.h>
#include <stdio.h>

static _Atomic int Counter;

__attribute__((noinline)) int bump(void) { return ++Counter; }

int main(void) {
  struct pcmap_function fn;
  printf("registered: %s\n",
         pcmap_lookup_function((uintptr_t)bump, &fn) ? "yes" : "no");
  return bump() == 1 ? 0 : 1;
}
