# Plain assembly: a function the program calls.
	.text
	.globl	asm_plain
	.type	asm_plain,@function
asm_plain:
	movl	$40, %eax
	ret
	.size	asm_plain, .-asm_plain
	.section	.note.GNU-stack,"",@progbits
