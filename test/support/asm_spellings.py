#!/usr/bin/env python3
"""Writes a C file with one function per inline-asm spelling of an atomic.

  asm_spellings.py x86_64|x86_64-intel|aarch64 > spellings.c
  asm_spellings.py x86_64|x86_64-intel|aarch64 --check OUTPUT

(x86_64-intel: Intel syntax, compiled with -masm=intel.)

Every spelling GNU as and clang's assembler accept for an atomic instruction
(operand modifiers, prefixes as words, statements of their own or bytes,
separators, comments, case, labels, sections) and a few that are no atomic
at all. Compiled with the drivers and linked, the program is held against
the disassembler by `check_pcmap.py disasm`: an atomic instruction of a
function that claims all its atomics and is not in the table is a wrong NO.
Each function also prints whether the runtime answers YES at the PC its
asm marks with the label "pcmap_spelling_<N>" (the first atomic), so that a
test can require YES where the spelling is one the classifier must know.
"""

import sys

# (name, asm template, outputs, inputs, clobbers, needs YES): the operands
# are p (int *), q (long *), v (int), w (long); %l labels are numbered.
X86 = [
    # The lock prefix as a word, a statement, a line of its own.
    ("lock_word", "lock addl $1, %0", '"+m"(*p)', "", "", True),
    ("lock_semicolon", "lock; addl $1, %0", '"+m"(*p)', "", "", True),
    ("lock_line", "lock\n\taddl $1, %0", '"+m"(*p)', "", "", True),
    ("lock_spaces", "lock ;  addl\t$1 ,  %0", '"+m"(*p)', "", "", True),
    ("lock_upper", "LOCK; incl %0", '"+m"(*p)', "", "", True),
    ("lock_upper_word", "LOCK incl %0", '"+m"(*p)', "", "", True),
    ("lock_mixed", "Lock; XaddL %1, %0", '"+m"(*p), "+r"(v)', "", "", True),
    ("lock_comment", "lock /* the prefix */ addl $1, %0 # add", '"+m"(*p)',
     "", "", True),
    ("lock_label", "1: lock addl $1, %0", '"+m"(*p)', "", "", True),
    ("lock_two_statements", "nop; lock incl %0; nop", '"+m"(*p)', "", "",
     False),
    ("lock_no_suffix", "lock add %1, %0", '"+m"(*p)', '"r"(v)', "", True),
    # Operand modifiers: %a (an address), %P and %c (a bare constant, here a
    # symbol), %H (8 bytes on), size modifiers of registers.
    ("xchg_a", "xchgl %0, %a1", '"+r"(v)', '"r"(p)', '"memory"', True),
    ("lock_inc_a", "lock incl %a0", "", '"r"(p)', '"memory"', True),
    ("cmpxchg_a", "lock cmpxchgl %2, %a1", '"+a"(v)', '"r"(p), "r"(v)',
     '"memory"', True),
    ("lock_P_rip", "lock incl %P0(%%rip)", "", '"i"(&counter)', '"memory"',
     True),
    ("lock_c_rip", "lock incl %c0(%%rip)", "", '"i"(&counter)', '"memory"',
     True),
    ("xchg_P_rip", "xchgl %0, %P1(%%rip)", '"+r"(v)', '"i"(&counter)',
     '"memory"', True),
    ("lock_H", "lock incl %H0", '"+m"(*q)', "", "", True),
    ("xchg_q", "xchgq %q0, %1", '"+r"(w), "+m"(*q)', "", "", True),
    ("xchg_k", "xchgl %k0, %1", '"+r"(w), "+m"(*p)', "", "", True),
    ("xchg_w", "xchgw %w0, %1", '"+r"(v), "+m"(*(short *)p)', "", "", True),
    ("xchg_b", "xchgb %b0, %1", '"+q"(v), "+m"(*(char *)p)', "", "", True),
    ("xchg_h", "xchgb %h0, %1", '"+Q"(v), "+m"(*(char *)p)', "", "", True),
    ("xchg_named", "xchgl %[v], %[m]", '[v] "+r"(v), [m] "+m"(*p)', "", "",
     True),
    ("xchg_reg_mem", "xchgl %0, (%1)", '"+r"(v)', '"r"(p)', '"memory"',
     True),
    ("xchg_mem_reg", "xchgl (%1), %0", '"+r"(v)', '"r"(p)', '"memory"',
     True),
    ("xchg_no_suffix", "xchg %0, %1", '"+r"(v), "+m"(*p)', "", "", True),
    ("xchg_V", "xchgl %0, (%%%V1)", '"+r"(v)', '"r"(p)', '"memory"', False),
    # Prefixes beside lock, before it or after it.
    ("rex64_lock", "rex64 lock addl $1, %0", '"+m"(*p)', "", "", True),
    ("rex64_xchg", "rex64 xchgl %k0, %1", '"+r"(w), "+m"(*q)', "", "", True),
    ("rex64_line", "rex64\n\tlock addl $1, %0", '"+m"(*p)', "", "", True),
    ("data16_lock", "data16 lock addl $1, %0", '"+m"(*p)', "", "", False),
    ("xacquire_lock", "xacquire lock addl $1, %0", '"+m"(*p)', "", "", True),
    ("xrelease_lock", "xrelease lock addl $1, %0", '"+m"(*p)', "", "", True),
    ("xacquire_xchg", "xacquire xchgl %0, %1", '"+r"(v), "+m"(*p)', "", "",
     True),
    ("xrelease_mov", "xrelease movl %1, %0", '"=m"(*p)', '"r"(v)', "",
     False),
    ("lock_fs", "lock addl $1, %%fs:(%0)", "", '"r"(0L)', '"memory"',
     False),
    ("fs_lock", "fs lock addl $1, (%0)", "", '"r"(0L)', '"memory"', False),
    ("lock_lone_asm", "lock", "", "", "", False),
    # The lock as bytes: the assembler cannot say; neither can pcmap.
    ("byte_lock", ".byte 0xf0; addl $1, %0", '"+m"(*p)', "", "", False),
    ("byte_lock_line", ".byte 0xf0\n\taddl $1, %0", '"+m"(*p)', "", "",
     False),
    ("byte_xchg", ".byte 0x87, 0x07", "", '"D"(p)', '"memory", "eax"',
     False),
    ("rept", ".rept 2\n\tlock incl %0\n\t.endr", '"+m"(*p)', "", "", False),
    ("macro", ".macro bump m\n\tlock incl \\m\n\t.endm\n\tbump %0\n\t.purgem bump",
     '"+m"(*p)', "", "", False),
    ("section_switch",
     ".pushsection .text.pcmap_other,\"ax\"\n\tlock incl (%%rdi)\n\t.popsection",
     "", "", "", False),
    # Every lockable operation, and the fixed-size compare-exchanges.
    ("lock_sub", "lock subl $1, %0", '"+m"(*p)', "", "", True),
    ("lock_and", "lock andl $1, %0", '"+m"(*p)', "", "", True),
    ("lock_or", "lock orl $1, %0", '"+m"(*p)', "", "", True),
    ("lock_xor", "lock xorl $1, %0", '"+m"(*p)', "", "", True),
    ("lock_adc", "lock adcl $1, %0", '"+m"(*p)', "", "", True),
    ("lock_sbb", "lock sbbl $1, %0", '"+m"(*p)', "", "", True),
    ("lock_neg", "lock negl %0", '"+m"(*p)', "", "", True),
    ("lock_not", "lock notl %0", '"+m"(*p)', "", "", True),
    ("lock_dec", "lock decl %0", '"+m"(*p)', "", "", True),
    ("lock_bts", "lock btsl $0, %0", '"+m"(*p)', "", "", True),
    ("lock_btr", "lock btrl $0, %0", '"+m"(*p)', "", "", True),
    ("lock_btc", "lock btcl $0, %0", '"+m"(*p)', "", "", True),
    ("lock_cmpxchg8b", "lock cmpxchg8b %0", '"+m"(*q)', "", '"eax", "edx"',
     True),
    ("lock_cmpxchg16b", "lock cmpxchg16b %0", '"+m"(*(__int128 *)q)', "",
     '"rax", "rdx"', True),
    ("stack_fence", "lock orl $0, (%%rsp)", "", "", '"memory"', False),
    # No atomic: a register xchg, a plain add, fences.
    ("xchg_registers", "xchgl %0, %k1", '"+r"(v), "+r"(w)', "", "", False),
    ("plain_add", "addl $1, %0", '"+m"(*p)', "", "", False),
    ("mfence", "mfence", "", "", '"memory"', False),
]

# Intel syntax (-masm=intel, or switched to inside the asm): never NO.
X86_INTEL = [
    ("intel_lock", "lock add dword ptr [%0], 1", "", '"r"(p)', '"memory"',
     False),
    ("intel_xchg", "xchg %0, dword ptr [%1]", '"+r"(v)', '"r"(p)',
     '"memory"', False),
    ("intel_xchg_m", "xchg %1, %0", '"+r"(v), "+m"(*p)', "", "", False),
    ("intel_switch",
     ".att_syntax\n\tlock incl (%%rdi)\n\t.intel_syntax noprefix", "", "",
     '"memory"', False),
]

AARCH64 = [
    ("ldxr", "ldxr %w0, [%1]", '"=r"(v)', '"r"(p)', '"memory"', True),
    ("ldaxr", "ldaxr %w0, [%1]", '"=r"(v)', '"r"(p)', '"memory"', True),
    ("stlxr", "stlxr %w0, %w2, [%1]", '"=&r"(v)', '"r"(p), "r"(v)',
     '"memory"', True),
    ("ldar", "ldar %x0, [%1]", '"=r"(w)', '"r"(q)', '"memory"', True),
    ("stlr", "stlr %w1, [%0]", "", '"r"(p), "r"(v)', '"memory"', True),
    ("ldapr", ".arch armv8.3-a\n\tldapr %w0, [%1]", '"=r"(v)', '"r"(p)',
     '"memory"', True),
    ("cas", ".arch armv8.1-a\n\tcasal %w0, %w2, [%1]", '"+r"(v)',
     '"r"(p), "r"(v)', '"memory"', True),
    ("ldadd", ".arch armv8.1-a\n\tldaddal %w2, %w0, [%1]", '"=r"(v)',
     '"r"(p), "r"(v)', '"memory"', True),
    ("swp", ".arch armv8.1-a\n\tswpal %w2, %w0, [%1]", '"=r"(v)',
     '"r"(p), "r"(v)', '"memory"', True),
    ("stadd", ".arch armv8.1-a\n\tstadd %w1, [%0]", "", '"r"(p), "r"(v)',
     '"memory"', True),
    ("upper", "LDAXR %w0, [%1]", '"=r"(v)', '"r"(p)', '"memory"', True),
    ("named", "ldaxr %w[v], [%[p]]", '[v] "=r"(v)', '[p] "r"(p)',
     '"memory"', True),
    ("memory_operand", "ldaxr %w0, %1", '"=r"(v)', '"Q"(*p)', "", True),
    ("semicolon", "nop; ldaxr %w0, [%1]; nop", '"=r"(v)', '"r"(p)',
     '"memory"', False),
    ("comment", "ldaxr %w0, [%1] // load", '"=r"(v)', '"r"(p)', '"memory"',
     True),
    ("label", "1: ldaxr %w0, [%1]", '"=r"(v)', '"r"(p)', '"memory"', True),
    ("loop",
     "1: ldaxr %w0, [%2]\n\tadd %w0, %w0, #1\n\tstlxr %w1, %w0, [%2]\n\t"
     "cbnz %w1, 1b", '"=&r"(v), "=&r"(w)', '"r"(p)', '"memory"', True),
    ("ldxp", "ldxp %x0, %x1, [%2]", '"=&r"(w), "=&r"(v)', '"r"(q)',
     '"memory"', True),
    ("dmb", "dmb ish", "", "", '"memory"', False),
    ("inst", ".inst 0x885f7c00", "", "", '"memory", "w0"', False),
    ("word", ".word 0x885f7c00", "", "", '"memory", "w0"', False),
    ("plain_load", "ldr %w0, [%1]", '"=r"(v)', '"r"(p)', '"memory"', False),
]


def check(spellings, path):
    """The program's answers (its output, in path): YES where the spelling
    requires it. Prints one line and returns the exit status."""
    answers = {}
    with open(path) as f:
        for line in f:
            name, _, answer = line.strip().partition(": ")
            answers[name] = answer
    wrong = ["%s: %s" % (name, answers.get(name, "missing"))
             for name, *_rest, needs_yes in spellings
             if needs_yes and answers.get(name) != "YES"]
    for w in wrong:
        print("FAIL: expected YES at " + w)
    if wrong:
        return 1
    print("OK: %d spellings, %d answer YES as required"
          % (len(spellings), sum(1 for *_r, y in spellings if y)))
    return 0


def main(argv):
    arch = argv[1] if len(argv) > 1 else "x86_64"
    spellings = {"x86_64": X86, "x86_64-intel": X86_INTEL,
                 "aarch64": AARCH64}[arch]
    if len(argv) > 3 and argv[2] == "--check":
        return check(spellings, argv[3])
    out = ["// Generated by test/support/asm_spellings.py %s." % arch,
           "#include <pcmap/pcmap.h>",
           "#include <stdio.h>",
           "",
           "int counter;"]
    for i, (name, tmpl, outs, ins, clobbers, _) in enumerate(spellings):
        text = tmpl.replace("\\", "\\\\").replace('"', '\\"').replace(
            "\n", "\\n")
        # The PC of the spelling: a label the function exports, where the
        # asm begins (the atomic is its first instruction, or after nops).
        out += ["__attribute__((noinline)) void s_%s(int *p, long *q, int v, "
                "long w) {" % name,
                '  __asm__ volatile(".globl pcmap_spelling_%d\\n"'
                '"pcmap_spelling_%d:\\n\\t" "%s" : %s : %s : %s);'
                % (i, i, text, outs, ins, clobbers),
                "  (void)p; (void)q; (void)v; (void)w;",
                "}"]
    out += ["", "int main(int argc, char **argv) {",
            "  long l[4] = {0, 0, 0, 0};",
            "  (void)argv;",
            "  if (argc > 1) { /* never run: the asm is only decoded */"]
    for name, *_ in spellings:
        out.append("    s_%s((int *)l, l, 0, 0);" % name)
    out.append("  }")
    for i, (name, *_rest) in enumerate(spellings):
        out += ["  {",
                "    extern char pcmap_spelling_%d[];" % i,
                "    const char *a = \"UNKNOWN\";",
                "    struct pcmap_function fn;",
                "    if (pcmap_lookup_function((uintptr_t)pcmap_spelling_%d, "
                "&fn) && (fn.features & PCMAP_FEATURE_ATOMICS))" % i,
                "      a = pcmap_is_atomic_pc((uintptr_t)pcmap_spelling_%d) "
                "? \"YES\" : \"NO\";" % i,
                '    printf("%s: %%s\\n", a);' % name,
                "  }"]
    out += ["  return 0;", "}"]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
