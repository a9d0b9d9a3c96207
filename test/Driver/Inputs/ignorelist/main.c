#include <pcmap/pcmap.h>
#include <stdio.h>

static _Atomic int Counter;

__attribute__((noinline)) int left(void) { return ++Counter; }
__attribute__((noinline)) int right(void) { return ++Counter; }

int main(void) {
  struct pcmap_function fn;
  printf("left: %s, right: %s\n",
         pcmap_lookup_function((uintptr_t)left, &fn) ? "yes" : "no",
         pcmap_lookup_function((uintptr_t)right, &fn) ? "yes" : "no");
  return 0;
}
