// Part of the program of html-tree.test (see dirA/alpha.c).
__attribute__((noinline)) long gamma_sum(const long *v, long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += v[i] * (i + 1);
  return s;
}
