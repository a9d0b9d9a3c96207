// Metadata sections that break one rule of docs/FORMAT.md each, chosen with
// -D<CASE>. Without a case, the sections are well formed.
        .text
        .globl  f
        .type   f,@function
f:
        lock incl counter(%rip)
.Lf_load:
        movl    counter(%rip), %eax
        retq
.Lf_end:
        .size   f, .Lf_end-f

        .data
counter:
        .long   0

#if defined(TRUNCATED_ULEB)
        .section pcmap_functions1,"awo",@progbits,.text
        .long   f-.
        .byte   0x8e                    // size, continuation bit, then nothing
#elif defined(OVERLONG_ULEB)
        .section pcmap_functions1,"awo",@progbits,.text
        .long   f-.
        .fill   10, 1, 0xff             // more than 64 bits
        .byte   0x01
        .byte   0
#elif defined(PC_IN_DATA)
        .section pcmap_functions1,"awo",@progbits,.text
        .long   counter-.
        .uleb128 4
        .uleb128 1
#elif defined(OVERSIZED)
        .section pcmap_functions1,"awo",@progbits,.text
        .long   f-.
        .uleb128 100000
        .uleb128 1
#elif defined(TRUNCATED_PC)
        .section pcmap_functions1,"awo",@progbits,.text
        .long   f-.
        .uleb128 .Lf_end-f
        .uleb128 1
        .short  0                       // half a relative PC
#elif defined(BAD_DESCRIPTOR)
        .section pcmap_atomics1,"awo",@progbits,.text
        .long   f-.
        .long   0
        .uleb128 5                      // kind 5 does not exist
#elif defined(UNTERMINATED)
        .section pcmap_atomics1,"awo",@progbits,.text
        .long   f-.
        .long   .Lf_load-.              // no zero word, no descriptor
#elif defined(NO_PC)
        .section pcmap_atomics1,"awo",@progbits,.text
        .long   0
        .uleb128 16
#elif defined(UNKNOWN_VERSION)
        .section pcmap_functions2,"awo",@progbits,.text
        .long   f-.
        .uleb128 .Lf_end-f
        .uleb128 1
#elif defined(UNKNOWN_FLAGS)
        .section pcmap_functions131073,"awo",@progbits,.text
        .long   f-.
        .uleb128 .Lf_end-f
        .uleb128 1
#elif defined(NO_VERSION)
        .section pcmap_functions,"awo",@progbits,.text
        .long   f-.
        .uleb128 .Lf_end-f
        .uleb128 1
#elif defined(ABSOLUTE_RELOCATION)
        .section pcmap_functions65537,"awo",@progbits,.text
        .quad   f                       // R_X86_64_64, not PC-relative
        .uleb128 .Lf_end-f
        .uleb128 1
#elif defined(WIDTH_MISMATCH)
        .section pcmap_functions65537,"awo",@progbits,.text
        .long   f-.                     // 4-byte PC where 8 are due
        .long   0
        .uleb128 .Lf_end-f
        .uleb128 1
#elif defined(UNDEFINED_TARGET)
        .section pcmap_functions1,"awo",@progbits,.text
        .long   elsewhere-.
        .uleb128 4
        .uleb128 1
#elif defined(ZERO_UPSTREAM_ATOMIC)
        .section sanmd_atomics2,"awo",@progbits,.text
        .long   f-.
        .long   0
#else
        .section pcmap_functions1,"awo",@progbits,.text
        .long   f-.
        .uleb128 .Lf_end-f
        .uleb128 3
        .section pcmap_atomics1,"awo",@progbits,.text
        .long   f-.
        .long   .Lf_load-.
        .long   0
        .uleb128 0x1d0                  // load, 4 bytes, seq_cst
#endif
