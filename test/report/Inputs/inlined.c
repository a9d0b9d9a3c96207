/* Atomics inlined from helpers (inlined.test checks these line numbers). */
static inline __attribute__((always_inline)) int ring_bump(int *p) {
  return __atomic_fetch_add(p, 1, __ATOMIC_ACQ_REL); /* line 3 */
}

static inline __attribute__((always_inline)) int ring_bump2(int *p) {
  return ring_bump(p) + ring_bump(p + 1); /* line 7 */
}

__attribute__((noinline)) int ring_push(int *p) { /* line 10 */
  int seen = ring_bump(p);                        /* line 11 */
  return seen + 1;
}

__attribute__((noinline)) int ring_pop(int *p) { /* line 15 */
  return ring_bump(p) - 1;                       /* line 16 */
}

__attribute__((noinline)) int ring_drain(int *p) { /* line 19 */
  return ring_bump2(p);                            /* line 20 */
}

int main(void) {
  int ring[2] = {0, 0};
  return ring_push(ring) + ring_pop(ring) + ring_drain(ring) - 2;
}
