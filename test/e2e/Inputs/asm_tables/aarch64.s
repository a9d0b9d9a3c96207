// Functions of every kind pcmap-asm meets, each with a global label at the
// instruction the test asks about (labels add no bytes).
	.arch	armv8.1-a
	.text
	.globl	add_lock_line, at_add_lock_line
	.type	add_lock_line,%function
add_lock_line:				// an exclusive loop
	mov	x2, x0
at_add_lock_line:
1:	ldaxr	w0, [x2]
	add	w3, w0, w1
	stlxr	w4, w3, [x2]
	cbnz	w4, 1b
	ret
	.size	add_lock_line,.-add_lock_line

	.globl	swap, at_swap, at_swap_plain
	.type	swap,%function
swap:					// LSE
at_swap_plain:
	mov	x2, x1; at_swap: swpal x2, x0, [x0]
	ret
.Lswap_end:
	.size	swap,.Lswap_end-swap	// a size the source's own label ends

	.globl	cas, at_cas
	.type	cas,%function
cas:
	mov	w3, w1
at_cas:	casal	w3, w2, [x0]
	mov	w0, w3
	ret
	.size	cas,.-cas

	.globl	plain, at_plain
	.type	plain,%function
plain:					// no atomic: NO everywhere
at_plain:
	ldr	w0, [x0]
	ret
	.size	plain,.-plain

	.globl	byte_lock, at_byte_lock
	.type	byte_lock,%function
byte_lock:				// an instruction as a word
at_byte_lock:
	.inst	0x885ffc00		// ldaxr w0, [x0]
	ret
	.size	byte_lock,.-byte_lock

	.globl	with_data, at_with_data
	.type	with_data,%function
with_data:				// data among the code: UNKNOWN
at_with_data:
	ldaxr	w0, [x0]
	ret
	.word	. - with_data		// a value the assembler computes
	.size	with_data,.-with_data

	.macro	bump reg
	ldadd	w1, w1, [\reg]
	.endm
	.globl	in_macro, at_in_macro
	.type	in_macro,%function
in_macro:				// an atomic a macro writes: UNKNOWN
at_in_macro:
	bump	x0
	ret
	.size	in_macro,.-in_macro

	.section .text.in_group,"axG",%progbits,in_group,comdat
	.globl	in_group, at_in_group
	.type	in_group,%function
in_group:				// a function in a COMDAT group
at_in_group:
	stlr	w1, [x0]
	ret
	.size	in_group,.-in_group

	.text
	.globl	no_size, at_no_size
	.type	no_size,%function
no_size:				// no .size: no entry (UNKNOWN)
at_no_size:
	ldar	w0, [x0]
	ret
	.globl	outer, inner, at_outer, at_inner, alias
	.type	outer,%function
	.type	inner,%function
	.type	alias,%function
outer:					// an entry point that falls through
at_outer:				// into the next (GMP's _1c_ entries)
	mov	w1, w1
alias:					// two names of one function
inner:
at_inner:
	ldaddal	w1, w1, [x0]
	ret
	.size	inner,.-inner
	.size	alias,.-alias
	.size	outer,.-outer
	.section .note.GNU-stack,"",%progbits
