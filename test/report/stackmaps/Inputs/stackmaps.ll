; Stack maps and patchpoints for x86-64 and AArch64 (llc -mtriple=...).
; Patchpoint sizes are multiples of 4 of at least 20 bytes, which both
; targets accept; the test expects exactly these reserved sizes:
;   ID 3: 24 bytes, ID 4: 20 bytes (null target), ID 5: 32 bytes (anyregcc).

declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
declare void @ext(i64)

; Several records in one function: a stack map right after a call (its
; record's PC is the call's return address), one whose shadow is ordinary
; code, and two patchpoints. Constants: small ones, -1, and large ones that
; go to the constant pool (ConstantIndex), an alloca (Direct).
define i64 @several(i64 %a, i64 %b) {
entry:
  %buf = alloca i64
  store i64 %a, ptr %buf
  call void @ext(i64 %a)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %a, i64 %b, ptr %buf, i32 7, i64 -1, i64 4294967296, i64 81985529216486895)
  %c = add i64 %a, %b
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 8, i64 %c)
  call void @ext(i64 %c)
  %r = call i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 3, i32 24, ptr inttoptr (i64 -281474976710654 to ptr), i32 2, i64 %a, i64 %c, i64 %b)
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 4, i32 20, ptr null, i32 0, i64 %r)
  ret i64 %r
}

; anyregcc: the patchpoint's arguments and result may be in any register.
define i64 @anyreg(i64 %x, i64 %y) {
entry:
  %r = call anyregcc i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 5, i32 32, ptr inttoptr (i64 12345678 to ptr), i32 2, i64 %x, i64 %y)
  ret i64 %r
}

; A large constant shared by two records of another function.
define void @constants(i64 %x) {
entry:
  call void @ext(i64 %x)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 7, i32 0, i64 81985529216486895, i64 -2147483648, i64 2147483647)
  call void @ext(i64 %x)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 8, i32 0, i64 81985529216486895, i64 %x)
  ret void
}
