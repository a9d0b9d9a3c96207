# Functions of every kind pcmap-asm meets, each with a global label at the
# instruction the test asks about (labels add no bytes).
	.text
	.globl	add_lock_line, at_add_lock_line
	.type	add_lock_line,@function
add_lock_line:				# `lock` as a statement of its own
	movl	%esi, %eax
at_add_lock_line:
	lock
	xaddl	%eax, (%rdi)
	ret
	.size	add_lock_line,.-add_lock_line

	.globl	swap, at_swap, at_swap_plain
	.type	swap,@function
swap:					# xchg locks without a prefix
at_swap_plain:
	movq %rsi, %rax; at_swap: xchgq %rax, (%rdi)
	ret
.Lswap_end:
	.size	swap,.Lswap_end-swap	# a size the source's own label ends

	.globl	cas, at_cas
	.type	cas,@function
cas:
	movl	%esi, %eax
at_cas:	lock cmpxchgl %edx, (%rdi)
	ret
	.size	cas,.-cas

	.globl	plain, at_plain
	.type	plain,@function
plain:					# no atomic: NO everywhere
at_plain:
	movl	(%rdi), %eax
	ret
	.size	plain,.-plain

	.globl	byte_lock, at_byte_lock
	.type	byte_lock,@function
byte_lock:				# OpenSSL's perlasm: bytes for the
	.byte	243,15,30,250		# endbr64 and the lock prefix
	movl	%esi, %eax
at_byte_lock:
	.byte	0xf0
	cmpxchgl %edx, (%rdi)
	.byte	0xf3,0xc3		# rep ret
	.size	byte_lock,.-byte_lock

	.globl	with_data, at_with_data
	.type	with_data,@function
with_data:				# data among the code: UNKNOWN
at_with_data:
	lock incl (%rdi)
	ret
	.long	. - with_data		# a value the assembler computes
	.size	with_data,.-with_data

	.macro	bump reg
	lock incl (\reg)
	.endm
	.globl	in_macro, at_in_macro
	.type	in_macro,@function
in_macro:				# an atomic a macro writes: UNKNOWN
at_in_macro:
	bump	%rdi
	ret
	.size	in_macro,.-in_macro

	.section .text.in_group,"axG",@progbits,in_group,comdat
	.globl	in_group, at_in_group
	.type	in_group,@function
in_group:				# a function in a COMDAT group
at_in_group:
	lock orl $1, (%rdi)
	ret
	.size	in_group,.-in_group

	.text
	.globl	no_size, at_no_size
	.type	no_size,@function
no_size:				# no .size: no entry (UNKNOWN)
at_no_size:
	lock incl (%rdi)
	ret
	.globl	outer, inner, at_outer, at_inner, alias
	.type	outer,@function
	.type	inner,@function
	.type	alias,@function
outer:					# an entry point that falls through
at_outer:				# into the next (GMP's _1c_ entries)
	movl	%esi, %eax
alias:					# two names of one function
inner:
at_inner:
	lock xaddl %eax, (%rdi)
	ret
	.size	inner,.-inner
	.size	alias,.-alias
	.size	outer,.-outer
	.section .note.GNU-stack,"",@progbits
