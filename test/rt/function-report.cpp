// The function report (report_functions=1): every function of the program
// with the size llvm-nm -S gives its symbol, its name demangled, its
// atomics by kind; text, CSV and JSON; sorted by size; with a shared object.

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang++ -g -O1 -fsanitize-metadata=all -c %S/Inputs/functions.cpp -o %t/functions.o
// RUN: %pcmap-clang++ -g -O1 -fsanitize-metadata=all %t/functions.o -o %t/prog
// RUN: env PCMAP_OPTIONS=report_functions=1:report_format=json:report_path=%t/json %run %t/prog
// RUN: %python %S/Inputs/check_functions.py %t/json json %t/prog %t/functions.o | FileCheck %s
// RUN: env PCMAP_OPTIONS=report_functions=1:report_format=csv:report_path=%t/csv %run %t/prog
// RUN: %python %S/Inputs/check_functions.py %t/csv csv %t/prog %t/functions.o | FileCheck %s
// An atomic lowered to several instructions counts each of them.
// CHECK:      int shapes::exchangeAll<int>(std::atomic<int>&, int) size=ok atomics={{[1-9][0-9]*}} load={{[1-9][0-9]*}} store=0 rmw={{[1-9][0-9]*}} cmpxchg={{[1-9][0-9]*}} fence=0 features=atomics,pcmap
// CHECK-NEXT: long shapes::exchangeAll<long>(std::atomic<long>&, long) size=ok atomics={{[1-9][0-9]*}} load={{[1-9][0-9]*}} store=0 rmw={{[1-9][0-9]*}} cmpxchg={{[1-9][0-9]*}} fence=0 features=atomics,pcmap
// CHECK-NEXT: main size=ok atomics={{[1-9][0-9]*}} load=0 store={{[1-9][0-9]*}} rmw=0 cmpxchg=0 fence={{[1-9][0-9]*}} features=atomics,pcmap
// CHECK-NEXT: shapes::Cache::release() size=ok atomics={{[1-9][0-9]*}} load=0 store=0 rmw={{[1-9][0-9]*}} cmpxchg=0 fence=0 features=atomics,pcmap
// CHECK-NEXT: shapes::Cache::retain() size=ok atomics={{[1-9][0-9]*}} load=0 store=0 rmw={{[1-9][0-9]*}} cmpxchg=0 fence=0 features=atomics,pcmap
// CHECK-NEXT: shapes::plain(int) size=ok atomics=0 load=0 store=0 rmw=0 cmpxchg=0 fence=0 features=atomics,pcmap

// RUN: env PCMAP_OPTIONS=report_functions=1 %run %t/prog 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: pcmap: function report: [[#]] functions in 1 module, [[#]] bytes, [[#]] atomics
// TEXT-NEXT: size atomics load store rmw cmpxchg fence unknown asm features start module: function
// TEXT: [[#]] [[#]] [[#]] 0 [[#]] [[#]] 0 0 0 atomics,pcmap 0x{{[0-9a-f]+}} prog: int shapes::exchangeAll<int>(std::atomic<int>&, int)
// TEXT: [[#]] 0 0 0 0 0 0 0 0 atomics,pcmap 0x{{[0-9a-f]+}} prog: shapes::plain(int)
