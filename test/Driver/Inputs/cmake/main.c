#include <stdio.h>
int bump_twice(void);
int main(void) {
  printf("bumped: %d\n", bump_twice());
  return 0;
}
