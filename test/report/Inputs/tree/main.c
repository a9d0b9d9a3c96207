// Part of the program of html-tree.test (see dirA/alpha.c).
long alpha_add(long), alpha_mix(long), beta_plain(long), delta_step(long);
long gamma_sum(const long *, long), plain_twice(long);
int beta_try(int);

int main(int argc, char **argv) {
  long v[4] = {argc, 2, 3, 4};
  (void)argv;
  return (int)(alpha_add(argc) + alpha_mix(argc) + beta_try(argc) +
               beta_plain(argc) + gamma_sum(v, 4) + delta_step(argc) +
               plain_twice(argc));
}
