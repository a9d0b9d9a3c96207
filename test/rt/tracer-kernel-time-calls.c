// Faults' time is not charged to the system calls around them: a thread
// whose system calls (write_file: pwrite into a file) take most of its CPU
// time and whose page faults (touch_pages) take a sixth. A tick that finds
// the thread in a fault charges it there (the thread's kernel time, as the
// kernel accounts it at its tick, says where the tick found it). Regression
// test: with the clock events on, the faults' time went to the next tick
// in a call; touch_pages had 7-8% of the samples for 15-16% of the time,
// write_file 80-81% for 72%.
// REQUIRES: pcmap-report
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O2 -g -fsanitize-metadata=all %S/Inputs/kernel_time.c -o %t/prog
// RUN: %python %S/Inputs/check_kernel_time.py 4 %t %pcmap-report %t/prog 3 %t/file | FileCheck %s
// CHECK: within 4 points: True
