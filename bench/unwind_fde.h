//===- bench/unwind_fde.h - libgcc's FDE lookup, the benchmarks' baseline -===//
//
// _Unwind_Find_FDE is exported by libgcc_s but declared in no installed
// header (unwind-dw2-fde.h): pcmap_rt_bench and pcmap_layout_bench time
// pcmap_lookup_function against it.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_BENCH_UNWIND_FDE_H
#define PCMAP_BENCH_UNWIND_FDE_H

struct dwarf_eh_bases {
  void *tbase;
  void *dbase;
  void *func;
};
extern "C" const void *_Unwind_Find_FDE(void *pc, struct dwarf_eh_bases *bases);

#endif // PCMAP_BENCH_UNWIND_FDE_H
