/* Assembly through the preprocessor, with an atomic of its own: compiled
   alone with -c, it gets tables; among other inputs, none (UNKNOWN). */
#define RESULT 2
	.text
	.globl	asm_cpp
	.type	asm_cpp,@function
asm_cpp:
	lock incl	(%rdi)
	movl	$RESULT, %eax
	ret
	.size	asm_cpp, .-asm_cpp
	.section	.note.GNU-stack,"",@progbits
