// A program in several directories for the HTML page's source tree
// (html-tree.test): dirA/alpha.c, dirA/beta.c, dirA/sub/gamma.c,
// dirB/inner/delta.c, main.c, and nodebug/plain.c built without -g.
// Built with -DNEW, dirA grows and dirB shrinks (the diff page).
#include <stdatomic.h>

_Atomic long alpha_count;

__attribute__((noinline)) long alpha_add(long x) {
  return atomic_fetch_add(&alpha_count, x) + atomic_fetch_sub(&alpha_count, 1);
}

__attribute__((noinline)) long alpha_mix(long x) {
  long s = 0;
  for (long i = 0; i < x; ++i)
    s += (i * 31) ^ (s >> 3);
#ifdef NEW
  for (long i = 0; i < x; ++i)
    s += (i * 17) ^ (s << 2) ^ atomic_load(&alpha_count);
#endif
  return s;
}
