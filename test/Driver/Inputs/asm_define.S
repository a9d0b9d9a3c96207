/* An atomic a #define spells. */
#define LOCKED lock
	.text
	.globl cpp_add
	.type cpp_add,@function
cpp_add:
	LOCKED; incl (%rdi)
	ret
	.size cpp_add,.-cpp_add
	.section .note.GNU-stack,"",@progbits
