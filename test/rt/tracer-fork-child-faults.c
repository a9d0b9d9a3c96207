// A forked child that exits at once pays, for the tracer's report at its
// exit, only for the pages it uses. Regression test: the report read every
// slot of the sample tables (their pages given back in the child) and
// wrote every slot of their snapshot and of the cumulative ranking's
// table: about 250 more page faults per child than without the tracer,
// 7 ms of CPU each on a virtual machine (a server that forks a worker per
// request paid it for every request). Now the tables' chunks in use are
// marked when a slot is claimed, and only those are read and copied.
// Faults are counted, not timed.
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O2 -fsanitize-metadata=all %S/Inputs/fork_faults.c -o %t/prog
// RUN: %python %S/Inputs/check_fork_faults.py 100 %t %t/prog | FileCheck %s
// CHECK: extra faults per child within 100: True
