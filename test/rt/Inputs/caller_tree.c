// Callers of one atomic that part above their first frames, for
// test/rt/tracer-callers-tree.c: reader calls take() directly; writer calls
// it through middle() and helper() from two call sites, and through other().
// The reader runs 0.6 s of CPU time, the writer 0.5: by cumulative samples
// the reader, the writer, then middle (some 99 % of the writer's), whose
// rank beside a reader of the writer's time was a toss-up.
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
_Atomic long c;
static double cpu(void){struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t); return t.tv_sec+t.tv_nsec/1e9;}
__attribute__((noinline)) void take(int n){ for (int i=0;i<n;++i) atomic_fetch_add(&c,1);}
__attribute__((noinline)) void helper(void){ take(1000); __asm__ volatile(""); }
__attribute__((noinline)) void other(void){ take(1000); __asm__ volatile(""); }
__attribute__((noinline)) void middle(int k){ if (k) helper(); else other(); __asm__ volatile(""); }
__attribute__((noinline)) void *reader(void *a){ double t=cpu(); while(cpu()-t<0.6) take(3000); return 0;}
__attribute__((noinline)) void *writer(void *a){ double t=cpu(); int k=0; while(cpu()-t<0.5) { middle(k++ % 3); middle(1); } return 0;}
int main(){ pthread_t a,b; pthread_create(&a,0,reader,0); pthread_create(&b,0,writer,0); pthread_join(a,0); pthread_join(b,0);}
