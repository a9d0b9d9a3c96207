// The drivers take every mode clang does with -fsanitize-metadata: the
// preprocessor (-E, -M, -MM, -MD), -fsyntax-only, -###, response files
// (pcmap's own options inside one too), ccache as a launcher; --help lists
// pcmap's options first, and a bad feature name lists the valid ones.
// RUN: rm -rf %t && mkdir %t && cd %t

// RUN: %pcmap-clang -fsanitize-metadata=all -Werror -E %s -o pre.i
// RUN: FileCheck %s --check-prefix=PRE < pre.i
// PRE: int counter_load(int *c)
// RUN: %pcmap-clang -fsanitize-metadata=all -Werror -M %s | FileCheck %s --check-prefix=DEPS
// RUN: %pcmap-clang -fsanitize-metadata=all -Werror -MM %s | FileCheck %s --check-prefix=DEPS
// DEPS: modes.o: {{.*}}modes.c
// RUN: %pcmap-clang -fsanitize-metadata=all -Werror -MD -MF deps.d -c %s -o md.o
// RUN: FileCheck %s --check-prefix=DEPS-O < deps.d
// DEPS-O: md.o: {{.*}}modes.c
// RUN: llvm-readelf -S md.o | FileCheck %s --check-prefix=TABLES
// TABLES: pcmap_atomics1
// RUN: %pcmap-clang -fsanitize-metadata=all -Werror -fsyntax-only %s

// RUN: %pcmap-clang -### -fsanitize-metadata=all -c %s 2>&1 | FileCheck %s --check-prefix=DRY
// DRY: "-cc1"
// DRY-SAME: "-mllvm" "-pcmap-atomics=1"

// A response file holds pcmap's options and clang's: both are obeyed; a
// missing one is left to clang, which says so.
// RUN: echo '-fsanitize-metadata=atomics -O2 -c' > args.rsp
// RUN: %pcmap-clang @args.rsp %s -o rsp.o
// RUN: llvm-readelf -S rsp.o | FileCheck %s --check-prefix=TABLES
// RUN: not %pcmap-clang @missing.rsp %s -o rsp.o 2>&1 | FileCheck %s --check-prefix=NORSP
// NORSP: error: no such file or directory: '@missing.rsp'

// ccache launches the driver as it launches clang; the cached object, the
// second time, is the same.
// RUN: %if ccache %{ env CCACHE_DIR=%t/cache CCACHE_NOHASHDIR=1 ccache %pcmap-clang -fsanitize-metadata=all -O2 -c %s -o cc1.o %}
// RUN: %if ccache %{ env CCACHE_DIR=%t/cache CCACHE_NOHASHDIR=1 ccache %pcmap-clang -fsanitize-metadata=all -O2 -c %s -o cc2.o %}
// RUN: %if ccache %{ llvm-readelf -S cc2.o | FileCheck %s --check-prefix=TABLES %}
// RUN: %if ccache %{ cmp cc1.o cc2.o %}

// RUN: %pcmap-clang --help | FileCheck %s --check-prefix=HELP
// HELP: pcmap {{.*}}: clang (LLVM {{[0-9.]+}}) with pcmap's metadata. pcmap's options:
// HELP: -fsanitize-metadata=<list>
// HELP: OVERVIEW: clang LLVM compiler
// RUN: not %pcmap-clang -fsanitize-metadata=bogus -c %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: unsupported argument 'bogus' to option '-fsanitize-metadata=' (valid: atomics, functions, covered, all)

int counter_load(int *c) { return __atomic_load_n(c, __ATOMIC_ACQUIRE); }
