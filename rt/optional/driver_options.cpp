//===- driver_options.cpp - Defaults for programs the drivers link --------===//
//
// pcmap-clang links libpcmap_rt_driver.a beside the runtime: a program built
// with the driver reports faults by default, one linked by hand does not
// (docs/Options.md, "How options are set"). The program's
// __pcmap_default_options() and PCMAP_OPTIONS still override these.
//
//===----------------------------------------------------------------------===//

extern "C" __attribute__((visibility("default"))) const char *
__pcmap_driver_options() {
  return "handle_segv=1:handle_sigbus=1:handle_sigill=1";
}
