// Reports never go into a program's data: a program that closed descriptor
// 2 and opened a file of its own, which took descriptor 2, keeps its file
// as it wrote it. A log the program opened for appending gets the report,
// as stderr would have; log_path keeps the report in either case.
// (docs/Options.md, "Where the runtime writes".)

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -fsanitize-metadata=all %S/Inputs/stderr_file.c -o %t/prog

// RUN: %python %S/Inputs/run.py %run %t/prog data %t/data | FileCheck %s --check-prefix=STATUS
// RUN: FileCheck %s --check-prefix=DATA --match-full-lines --implicit-check-not=pcmap < %t/data
// STATUS:      crashing
// STATUS-NEXT: status: killed by SIGSEGV
// DATA: the program's data

// RUN: %python %S/Inputs/run.py %run %t/prog append %t/log | FileCheck %s --check-prefix=STATUS
// RUN: FileCheck %s --check-prefix=LOG < %t/log
// LOG:      the program's log
// LOG-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV (address not mapped) on address 0x10
// LOG:      pcmap: =={{[0-9]+}}== the default action of SIGSEGV follows

// RUN: env PCMAP_OPTIONS=log_path=%t/pcmap %python %S/Inputs/run.py %run %t/prog data %t/data2 | FileCheck %s --check-prefix=STATUS
// RUN: FileCheck %s --check-prefix=DATA --match-full-lines --implicit-check-not=pcmap < %t/data2
// RUN: cat %t/pcmap.* | FileCheck %s --check-prefix=LOGPATH
// LOGPATH: pcmap: =={{[0-9]+}}== SIGSEGV (address not mapped) on address 0x10
