#include <pcmap/pcmap.h>
#include <stdio.h>

int asm_plain(void);
int asm_cpp(int *);

int main(void) {
  int counter = 0;
  int sum = asm_plain() + asm_cpp(&counter);
  printf("sum %d, counter %d\n", sum, counter);
  printf("main: %d, asm_plain: %d, asm_cpp: %d\n",
         pcmap_is_atomic_pc((uintptr_t)&main),
         pcmap_is_atomic_pc((uintptr_t)&asm_plain),
         pcmap_is_atomic_pc((uintptr_t)&asm_cpp));
  return 0;
}
