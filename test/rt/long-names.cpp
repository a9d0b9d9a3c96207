// A C++ name longer than the runtime's buffers is cut with a marker: the
// fault report's stack frame and its function line end the name with "...",
// never in the middle of a token without saying so.
// Regression test: names were cut mid-token with nothing to show it.
// UNSUPPORTED: sanitizer

// clang-format off
// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang++ -g -O1 -fno-omit-frame-pointer -fsanitize-metadata=all %s -o %t/prog
// RUN: not --crash %run %t/prog 2>&1 | FileCheck %s
// clang-format on

// CHECK: pcmap: ==[[#]]== SIGSEGV (address not mapped) on address 0x0
// CHECK: pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, 1 atomic): int load<Tag_with_a_long_name_for_the_template_argument_list<1>, {{.*}}...{{$}}
// CHECK: pcmap: stack:
// CHECK-NEXT: pcmap:   #0 0x{{[0-9a-f]+}} in int load<Tag_with_a_long_name_for_the_template_argument_list<1>, {{.*}}... {{.*}}long-names.cpp:[[#@LINE+9]]
// CHECK-NEXT: pcmap:   #1 0x{{[0-9a-f]+}} in main {{.*}}long-names.cpp:

template <int N> struct Tag_with_a_long_name_for_the_template_argument_list {};
template <int N>
using Tag = Tag_with_a_long_name_for_the_template_argument_list<N>;

template <class A, class B, class C, class D, class E, class F, class G>
__attribute__((noinline)) int load(int *P) {
  return __atomic_load_n(P, __ATOMIC_ACQUIRE);
}

int main(int argc, char **) {
  int *P = argc > 5 ? &argc : nullptr;
  return load<Tag<1>, Tag<2>, Tag<3>, Tag<4>, Tag<5>, Tag<6>, Tag<7>>(P);
}
