# Version 2 upstream metadata as LLVM 17 and 18 emit it: unsuffixed sections,
# ULEB128 size and features, a stack-arguments size when UARHasSize (4) is set.
        .text
        .globl  v2_atomic
        .type   v2_atomic,@function
v2_atomic:
        lock incl v2_counter(%rip)
        retq
.Lv2_atomic_end:
        .size   v2_atomic, .Lv2_atomic_end-v2_atomic

        .globl  v2_uar
        .type   v2_uar,@function
v2_uar:
        xorl    %eax, %eax
        retq
.Lv2_uar_end:
        .size   v2_uar, .Lv2_uar_end-v2_uar

        .section sanmd_covered,"awo",@progbits,.text
        .long   v2_atomic-.
        .uleb128 .Lv2_atomic_end-v2_atomic
        .uleb128 1
        .long   v2_uar-.
        .uleb128 .Lv2_uar_end-v2_uar
        .uleb128 6
        .uleb128 144

        .section sanmd_atomics,"awo",@progbits,.text
        .long   v2_atomic-.

        .bss
        .globl  v2_counter
v2_counter:
        .long   0
