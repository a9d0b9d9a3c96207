#include <stdatomic.h>
#include <stdio.h>

static _Atomic int Count;

int main(void) {
  atomic_fetch_add(&Count, 1);
  printf("hello from meson, %d\n", atomic_load(&Count));
  return 0;
}
