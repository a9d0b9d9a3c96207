# Version 1 upstream metadata (LLVM 16): unsuffixed sections, 32-bit size and
# features, a 32-bit stack-arguments size when the UAR bit (2) is set.
        .text
        .globl  v1_atomic
        .type   v1_atomic,@function
v1_atomic:
        lock incl v1_counter(%rip)
.Lv1_load:
        movl    v1_counter(%rip), %eax
        retq
.Lv1_atomic_end:
        .size   v1_atomic, .Lv1_atomic_end-v1_atomic

        .globl  v1_uar
        .type   v1_uar,@function
v1_uar:
        xorl    %eax, %eax
        retq
.Lv1_uar_end:
        .size   v1_uar, .Lv1_uar_end-v1_uar

        .section sanmd_covered,"awo",@progbits,.text
        .long   v1_atomic-.
        .long   .Lv1_atomic_end-v1_atomic
        .long   1
        .long   v1_uar-.
        .long   .Lv1_uar_end-v1_uar
        .long   2
        .long   24

        .section sanmd_atomics,"awo",@progbits,.text
        .long   v1_atomic-.
        .long   .Lv1_load-.

        .bss
        .globl  v1_counter
v1_counter:
        .long   0
