// pcmap-clang turns -fsanitize-metadata= into the plugin's arguments and
// passes everything else to clang unchanged.
// RUN: %pcmap-clang -### -fsanitize-metadata=all -O2 -c %s 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: %pcmap-clang -### -fsanitize-metadata=atomics,functions -c %s 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: %pcmap-clang -### -fsanitize-metadata=atomics -c %s 2>&1 | FileCheck %s --check-prefix=ATOMICS
// RUN: %pcmap-clang -### -fsanitize-metadata=covered -c %s 2>&1 | FileCheck %s --check-prefix=FUNCS
// RUN: %pcmap-clang -### -fsanitize-metadata=all -fno-sanitize-metadata=atomics -c %s 2>&1 | FileCheck %s --check-prefix=FUNCS
// Later flags win, as with -fsanitize=.
// RUN: %pcmap-clang -### -fno-sanitize-metadata=all -fsanitize-metadata=functions -c %s 2>&1 | FileCheck %s --check-prefix=FUNCS
// Nothing asked, or everything taken back: plain clang.
// RUN: %pcmap-clang -### -O2 -c %s 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: %pcmap-clang -### -fsanitize-metadata=all -fno-sanitize-metadata=all -c %s 2>&1 | FileCheck %s --check-prefix=PLAIN
// An empty list names nothing, as clang's -fsanitize= does.
// Regression test: "-fsanitize-metadata=" was an error.
// RUN: %pcmap-clang -### -fsanitize-metadata= -c %s 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: %pcmap-clang -### -fsanitize-metadata=all -fsanitize-metadata= -fno-sanitize-metadata= -c %s 2>&1 | FileCheck %s --check-prefix=ALL

// ALL: "-load" "{{.*}}pcmap-plugin.so" "-fpass-plugin={{.*}}pcmap-plugin.so"
// ALL-SAME: "-mllvm" "-pcmap-atomics=1" "-mllvm" "-pcmap-functions=1"
// ATOMICS: "-mllvm" "-pcmap-atomics=1" "-mllvm" "-pcmap-functions=0"
// FUNCS: "-mllvm" "-pcmap-atomics=0" "-mllvm" "-pcmap-functions=1"
// (Checked by the plugin's arguments: the paths may hold "pcmap" anyway.)
// PLAIN-NOT: {{pcmap-plugin|-pcmap-atomics|-pcmap-functions}}
// PLAIN: "-cc1"
// PLAIN-NOT: {{pcmap-plugin|-pcmap-atomics|-pcmap-functions}}

// Unknown features are errors, as in clang.
// RUN: not %pcmap-clang -fsanitize-metadata=atomics,bogus -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %pcmap-clang -fno-sanitize-metadata=uar -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADNO
// BAD: pcmap-clang: error: unsupported argument 'bogus' to option '-fsanitize-metadata='
// BADNO: pcmap-clang: error: unsupported argument 'uar' to option '-fno-sanitize-metadata='

// The ignorelist is passed with an absolute path; a missing one is an error.
// RUN: rm -rf %t && mkdir -p %t && echo 'fun:foo' > %t/ignore.txt
// RUN: cd %t && %pcmap-clang -### -fsanitize-metadata=all -fsanitize-metadata-ignorelist=ignore.txt -c %s 2>&1 | FileCheck %s --check-prefix=IGNORE -DDIR=%t
// RUN: not %pcmap-clang -fsanitize-metadata=all -fsanitize-metadata-ignorelist=%t/missing.txt -c %s 2>&1 | FileCheck %s --check-prefix=MISSING
// IGNORE: "-mllvm" "-pcmap-ignorelist=[[DIR]]/ignore.txt"
// MISSING: pcmap-clang: error: ignorelist file '{{.*}}missing.txt' not found

// With LTO, compile steps only mark functions; the link runs the plugin in lld.
// RUN: %pcmap-clang -### -fsanitize-metadata=all -flto=thin %s -o %t/a.out 2>&1 | FileCheck %s --check-prefix=LTO
// LTO: "-mllvm" "-pcmap-lto-prelink"
// LTO: "{{.*}}ld.lld"
// LTO-SAME: "--load-pass-plugin={{.*}}pcmap-plugin.so"

// A link of objects compiles nothing: no plugin, no unused-argument warnings.
// A source read from stdin, or named with -x, is compiled.
// RUN: touch %t/x.o %t/libfoo.a %t/libbar.so.1
// RUN: %pcmap-clang -### -fsanitize-metadata=all %t/x.o %t/libfoo.a %t/libbar.so.1 -o %t/a.out 2>&1 | FileCheck %s --check-prefix=LINKONLY
// RUN: %pcmap-clang -### -fsanitize-metadata=all -x c - -c -o %t/x.o 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: %pcmap-clang -### -fsanitize-metadata=all -x c %t/x.o -c -o %t/y.o 2>&1 | FileCheck %s --check-prefix=ALL
// LINKONLY-NOT: pcmap-plugin
// LINKONLY-NOT: -pcmap-
// LINKONLY-NOT: warning

// The environment can point at another plugin or compiler.
// RUN: not env PCMAP_PLUGIN=%t/nowhere.so %pcmap-clang -fsanitize-metadata=all -c %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: pcmap-clang: error: cannot find the pcmap plugin at '{{.*}}nowhere.so' (set PCMAP_PLUGIN)
// RUN: not env PCMAP_CLANG=%t/noclang %pcmap-clang -c %s 2>&1 | FileCheck %s --check-prefix=NOCLANG
// NOCLANG: pcmap-clang: error: cannot run '{{.*}}noclang': No such file or directory

int main(void) { return 0; }

// Split functions: -fbasic-block-sections=all|list= and
// -fsplit-machine-functions make the plugin mark every function
// (-pcmap-fragmented); =labels, a later =none, and
// -fno-split-machine-functions do not.
// RUN: %pcmap-clang -### -fsanitize-metadata=all -fbasic-block-sections=all -c %s 2>&1 | FileCheck %s --check-prefix=FRAG
// RUN: %pcmap-clang -### -fsanitize-metadata=all -fbasic-block-sections=list=%s -c %s 2>&1 | FileCheck %s --check-prefix=FRAG
// RUN: %pcmap-clang -### -fsanitize-metadata=all -fsplit-machine-functions -c %s 2>&1 | FileCheck %s --check-prefix=FRAG
// RUN: %pcmap-clang -### -fsanitize-metadata=all -fbasic-block-sections=labels -c %s 2>&1 | FileCheck %s --check-prefix=NOFRAG
// RUN: %pcmap-clang -### -fsanitize-metadata=all -fbasic-block-sections=all -fbasic-block-sections=none -c %s 2>&1 | FileCheck %s --check-prefix=NOFRAG
// RUN: %pcmap-clang -### -fsanitize-metadata=all -fsplit-machine-functions -fno-split-machine-functions -c %s 2>&1 | FileCheck %s --check-prefix=NOFRAG
// FRAG: "-mllvm" "-pcmap-fragmented"
// NOFRAG-NOT: pcmap-fragmented
