// One inline asm form per -D<FORM>, for the asm-*.test files. The asm
// defines the global label asm_site where its instruction starts (at the
// first prefix) and asm_end after it; main asks the runtime about both, and
// about a plain store of the same function. Plain stores bracket each asm so
// that metadata leaking onto them shows.
//
// Recognised forms run; unanalysable ones sit behind a branch that is never
// taken (some are not even valid instructions).

#include <pcmap/pcmap.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SITE ".globl asm_site\nasm_site: "
#define END "\n.globl asm_end\nasm_end:"
#define LOCK_PREFIX "lock; "

#if defined(MACRO_CALL)
// A macro defined at file scope, invoked in the function's asm.
__asm__(".macro pcmap_test_locked_inc p\nlock; incl \\p\n.endm");
#endif

static int buf[16] __attribute__((aligned(64)));
static volatile int plain;
extern char asm_site[], asm_end[], plain_site[];

__attribute__((noinline)) void form(int *p, int never) {
  plain = 1;
  __asm__ volatile(".globl plain_site\nplain_site:" ::: "memory");
  plain = 2;
  if (never) {
#if defined(MACRO_DEF)
    __asm__ volatile(SITE ".macro pcmap_m p\nlock; incl \\p\n.endm\n"
                          "pcmap_m %0" END
                     : "+m"(*p));
#elif defined(MACRO_CALL)
    __asm__ volatile(SITE "pcmap_test_locked_inc %0" END : "+m"(*p));
#elif defined(REPT)
    __asm__ volatile(SITE ".rept 2\nlock; incl %0\n.endr" END : "+m"(*p));
#elif defined(BYTE)
    __asm__ volatile(SITE ".byte 0xf0; incl %0" END : "+m"(*p));
#elif defined(SECTION)
    __asm__ volatile(SITE "lock; incl %0\n.pushsection .data\n.long 1\n"
                          ".popsection" END
                     : "+m"(*p));
#elif defined(INTEL_SYNTAX)
    __asm__ volatile(SITE ".intel_syntax noprefix\nlock inc dword ptr [rdi]\n"
                          ".att_syntax" END
                     :
                     : "D"(p)
                     : "memory");
#elif defined(INTEL_DIALECT)
    // Compiled with -masm=intel.
    __asm__ volatile(SITE "lock inc dword ptr [%0]" END : : "r"(p) : "memory");
#elif defined(LOCK_UNKNOWN)
    __asm__ volatile(SITE "lock; movl %%eax, %0" END : "=m"(*p)::"eax");
#elif defined(PREFIX_ALONE)
    __asm__ volatile(SITE "lock" ::: "memory");
    __asm__ volatile("incl %0" END : "+m"(*p));
#elif defined(XCHG_RM)
    int v = 1;
    __asm__ volatile(SITE "xchgl %0, %1" END : "+r"(v), "+rm"(*p));
#elif defined(ALTERNATIVES)
    __asm__ volatile(SITE "{lock; incl %0|lock inc %0}" END : "+m"(*p));
#endif
  }
  int v = 1;
  long long o = 0;
  (void)v;
  (void)o;
#if defined(XCHG_MEM)
  __asm__ volatile(SITE "xchgl %0, %1" END : "+r"(v), "+m"(*p));
#elif defined(LOCK_XCHGB)
  char c = 1;
  __asm__ volatile(SITE "lock; xchgb %0, %1" END : "+q"(c), "+m"(*(char *)p));
#elif defined(LOCK_XADD)
  __asm__ volatile(SITE LOCK_PREFIX "xaddl %0, %1" END : "+r"(v), "+m"(*p));
#elif defined(LOCK_ADD)
  __asm__ volatile(SITE "lock addl $2, %0" END : "+m"(*p));
#elif defined(LOCK_SUB)
  __asm__ volatile(SITE "lock; subw $2, %0" END : "+m"(*(short *)p));
#elif defined(LOCK_AND)
  __asm__ volatile(SITE "lock; andq %1, %0" END : "+m"(*(long *)p) : "r"(3L));
#elif defined(LOCK_OR)
  __asm__ volatile(SITE "lock; orb $1, %0" END : "+m"(*(char *)p));
#elif defined(LOCK_XOR)
  __asm__ volatile(SITE "lock; xorl %1, %0" END : "+m"(*p) : "r"(v));
#elif defined(LOCK_INC)
  __asm__ volatile(SITE "lock\n\tincl %0" END : "+m"(*p));
#elif defined(LOCK_DEC)
  __asm__ volatile(SITE "lock; decq %0" END : "+m"(*(long *)p));
#elif defined(LOCK_NEG)
  __asm__ volatile(SITE "lock; negl %0" END : "+m"(*p));
#elif defined(LOCK_NOT)
  __asm__ volatile(SITE "lock; notl %0" END : "+m"(*p));
#elif defined(LOCK_BTS)
  __asm__ volatile(SITE "lock; btsl $3, %0" END : "+m"(*p));
#elif defined(LOCK_BTR)
  __asm__ volatile(SITE "lock; btrq $3, %0" END : "+m"(*(long *)p));
#elif defined(LOCK_BTC)
  __asm__ volatile(SITE "lock; btcw $3, %0" END : "+m"(*(short *)p));
#elif defined(LOCK_CMPXCHG)
  int old = 0;
  __asm__ volatile(SITE LOCK_PREFIX "cmpxchgl %2, %1" END
                   : "+a"(old), "+m"(*p)
                   : "r"(v));
#elif defined(LOCK_CMPXCHG8B)
  __asm__ volatile(SITE "lock; cmpxchg8b %0" END
                   : "+m"(*(long long *)p)
                   :
                   : "eax", "edx", "ebx", "ecx");
#elif defined(LOCK_CMPXCHG16B)
  __asm__ volatile(SITE "lock; cmpxchg16b %0" END
                   : "+m"(*(__int128 *)p)
                   :
                   : "rax", "rdx", "rbx", "rcx");
#elif defined(MFENCE)
  __asm__ volatile(SITE "mfence" END ::: "memory");
#elif defined(LFENCE)
  __asm__ volatile(SITE "lfence" END ::: "memory");
#elif defined(SFENCE)
  __asm__ volatile(SITE "sfence" END ::: "memory");
#elif defined(FENCE_IDIOM)
  __asm__ volatile(SITE "lock; addl $0,0(%%rsp)" END ::: "memory");
#elif defined(FENCE_IDIOM_RED_ZONE)
  __asm__ volatile(SITE "lock; orq $0, -8(%%rsp)" END ::: "memory");
#elif defined(XACQUIRE)
  __asm__ volatile(SITE "xacquire; lock; xaddl %0, %1" END : "+r"(v), "+m"(*p));
#elif defined(REGISTER_SIZE)
  // No suffix: the size comes from the register, through an operand
  // modifier.
  __asm__ volatile(SITE "lock; xadd %w0, %1" END : "+r"(v), "+m"(*(short *)p));
#endif
  plain = 3;
}

static void ask(const char *Name, const void *PC) {
  int A = pcmap_is_atomic_pc((uintptr_t)PC);
  char Text[512];
  pcmap_describe_pc((uintptr_t)PC, Text, sizeof(Text));
  const char *What = strstr(Text, "): ");
  printf("%s: %s %s\n", Name,
         A == PCMAP_YES  ? "YES"
         : A == PCMAP_NO ? "NO"
                         : "UNKNOWN",
         What ? What + 3 : Text);
}

int main(int argc, char **argv) {
  (void)argv;
  form(buf, argc > 100);
  ask("site", asm_site);
  ask("end", asm_end);
  ask("plain", plain_site);
  return 0;
}
