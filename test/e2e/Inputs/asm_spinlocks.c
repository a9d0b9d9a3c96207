// Spinlocks, reference counts and barriers written in inline asm the way
// liburcu (arch/x86.h, uatomic/x86.h) and ck (ck_pr, ck_spinlock) write
// them, for the disassembler cross-check, the invariance check and the link
// tests of inline asm atomics. Every locked instruction here must be in the
// table, and every table entry must be one.

#include <stdint.h>
#include <stdio.h>

#define LOCK_PREFIX "lock; "
#define cmm_smp_mb() __asm__ __volatile__("lock; addl $0,0(%%rsp)" ::: "memory")
#define cmm_mb() __asm__ __volatile__("mfence" ::: "memory")

struct spinlock {
  volatile unsigned char locked;
};

static inline unsigned char xchg_u8(volatile unsigned char *p,
                                    unsigned char v) {
  __asm__ __volatile__("xchgb %0, %1" : "+q"(v), "+m"(*p) : : "memory");
  return v;
}

static inline int cmpxchg_u32(volatile int *p, int old, int new_) {
  int prev;
  __asm__ __volatile__(LOCK_PREFIX "cmpxchgl %2,%1"
                       : "=a"(prev), "+m"(*p)
                       : "r"(new_), "0"(old)
                       : "memory");
  return prev;
}

static inline int xadd_u32(volatile int *p, int v) {
  __asm__ __volatile__(LOCK_PREFIX "xaddl %0, %1"
                       : "+r"(v), "+m"(*p)
                       :
                       : "memory");
  return v;
}

static inline void inc_u32(volatile int *p) {
  __asm__ __volatile__(LOCK_PREFIX "incl %0" : "+m"(*p) : : "memory");
}

static inline int dec_and_test(volatile long *p) {
  unsigned char zero;
  __asm__ __volatile__("lock; decq %0; sete %1"
                       : "+m"(*p), "=qm"(zero)
                       :
                       : "memory");
  return zero;
}

static inline void or_u64(volatile uint64_t *p, uint64_t v) {
  __asm__ __volatile__("lock; orq %1, %0" : "+m"(*p) : "er"(v) : "memory");
}

static inline int bts_u64(volatile uint64_t *p, long bit) {
  unsigned char was;
  __asm__ __volatile__("lock btsq %2, %0\n\tsetc %1"
                       : "+m"(*p), "=q"(was)
                       : "r"(bit)
                       : "memory");
  return was;
}

static inline int dwcas(volatile __int128 *p, __int128 old, __int128 new_) {
  unsigned char ok;
  __asm__ __volatile__("lock; cmpxchg16b %1\n\tsete %0"
                       : "=q"(ok), "+m"(*p), "+A"(old)
                       : "b"((uint64_t)new_), "c"((uint64_t)(new_ >> 64))
                       : "memory");
  return ok;
}

__attribute__((noinline)) void spin_lock(struct spinlock *l) {
  while (xchg_u8(&l->locked, 1))
    __asm__ __volatile__("rep; nop" ::: "memory"); // pause
}

__attribute__((noinline)) void spin_unlock(struct spinlock *l) {
  __asm__ __volatile__("" ::: "memory");
  l->locked = 0;
}

__attribute__((noinline)) int ticket_take(volatile int *next) {
  return xadd_u32(next, 1);
}

__attribute__((noinline)) int try_cas(volatile int *p) {
  return cmpxchg_u32(p, 0, 1) == 0;
}

__attribute__((noinline)) void ref_get(volatile int *r) { inc_u32(r); }

__attribute__((noinline)) int ref_put(volatile long *r) {
  return dec_and_test(r);
}

__attribute__((noinline)) void barriers(void) {
  cmm_smp_mb();
  cmm_mb();
}

__attribute__((noinline)) int bits(volatile uint64_t *w) {
  or_u64(w, 4);
  return bts_u64(w, 7);
}

__attribute__((noinline)) int pair(volatile __int128 *p) {
  return dwcas(p, 0, 1);
}

// Not called: --gc-sections drops it, and its asm record with it.
void unused_asm_atomic(volatile int *p) { inc_u32(p); }

static struct spinlock lock;
static volatile int counter, next_ticket, flag, refs = 1;
static volatile long lrefs = 1;
static volatile uint64_t word;
static volatile __int128 dword __attribute__((aligned(16)));

int main(void) {
  spin_lock(&lock);
  counter++;
  spin_unlock(&lock);
  int t = ticket_take(&next_ticket);
  int c = try_cas(&flag);
  ref_get(&refs);
  int z = ref_put(&lrefs);
  barriers();
  int b = bits(&word);
  int d = pair(&dword);
  printf("counter=%d ticket=%d cas=%d refs=%d zero=%d bit=%d dw=%d\n",
         counter, t, c, refs, z, b, d);
  return 0;
}
// OUT: counter=1 ticket=0 cas=1 refs=2 zero=1 bit=0 dw=1
