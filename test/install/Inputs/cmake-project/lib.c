/* A shared library instrumented with pcmap_instrument: it registers with the
 * runtime of the executable that loads it. */
int lib_bump(int *p) { return __atomic_fetch_add(p, 1, __ATOMIC_RELAXED); }
