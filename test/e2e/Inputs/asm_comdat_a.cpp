#include "asm_comdat.h"
#include <stdio.h>

static volatile int counter;
static volatile long word;

int main() {
  int a = asm_fetch_add(&counter, 2);
  long b = asm_exchange<long>(&word, 5);
  int c = asm_comdat_other(&counter, &word);
  printf("a=%d b=%ld c=%d counter=%d word=%ld\n", a, b, c, counter, word);
  return 0;
}
// OUT: a=0 b=0 c=2 counter=5 word=7
