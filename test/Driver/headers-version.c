// The drivers put pcmap's public headers on the include path, after the
// user's own directories (as clang does with its resource headers), so that
// <pcmap/pcmap.h> needs no -I; --version prints clang's text first, whose
// first line build tools parse (Meson, CMake, autoconf, libtool), then which
// pcmap and which LLVM its plugin was built for.
// Regression test: the first line was "pcmap 0.1.0 (...)", and Meson took
// the compiler for clang 0.1.0 ("c_std=c17 is not one of the choices").

// RUN: rm -rf %t && mkdir -p %t/mine/pcmap
// RUN: %pcmap-clang -fsanitize-metadata=all %s -o %t/prog
// RUN: %t/prog | FileCheck %s --check-prefix=PROG
// RUN: %pcmap-clang++ -fsanitize-metadata=all -x c++ %s -o %t/prog-cxx
// RUN: %t/prog-cxx | FileCheck %s --check-prefix=PROG
// PROG: modules: 1

// A header of the user's own with the same name wins.
// RUN: echo '#define USERS_OWN_HEADER 1' > %t/mine/pcmap/pcmap.h
// RUN: %pcmap-clang -I%t/mine -E -dM %s | FileCheck %s --check-prefix=OWN
// OWN: #define USERS_OWN_HEADER 1

// A driver without -fsanitize-metadata compiles against the headers too (the
// program then has no metadata, and links no runtime).
// RUN: %pcmap-clang -fsyntax-only %s

// RUN: %pcmap-clang --version | FileCheck %s --check-prefix=VERSION -DLLVM=%llvm-version
// RUN: %pcmap-clang++ --version | FileCheck %s --check-prefix=VERSION -DLLVM=%llvm-version
// VERSION:      {{^(Debian |Ubuntu )?}}clang version [[LLVM]].
// VERSION:      pcmap version {{[0-9]+\.[0-9]+\.[0-9]+}} (plugin built for LLVM [[LLVM]].{{[0-9]+\.[0-9]+}})

#include <pcmap/pcmap.h>
#include <stdio.h>

int main(void) {
  struct pcmap_stats S;
  pcmap_get_stats(&S);
  printf("modules: %zu\n", (size_t)S.modules);
  return 0;
}
