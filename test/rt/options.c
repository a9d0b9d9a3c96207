// PCMAP_OPTIONS and __pcmap_default_options(): help=1, every separator,
// verbosity, log_path (stderr, stdout, a file with the pid appended, a path
// that cannot be opened), and warnings for unknown keys and bad values,
// which are ignored.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pcmap-clang -fsanitize-metadata=all -I%pcmap-include %s -o %t/prog
// RUN: %pcmap-clang -fsanitize-metadata=all -DDEFAULTS -I%pcmap-include %s -o %t/prog-defaults
// RUN: %clang %link-sanitizers -I%pcmap-include -DNO_METADATA %s -Wl,--whole-archive %pcmap-rt-a -Wl,--no-whole-archive -o %t/prog-plain

// RUN: env PCMAP_OPTIONS=help=1 %run %t/prog 2>&1 | FileCheck %s --check-prefix=HELP
// HELP: pcmap: options (PCMAP_OPTIONS=key=value:key=value):
// HELP: pcmap:   verbosity (int) = 1
// HELP: pcmap:   log_path (string) = stderr
// HELP: pcmap:   help (bool) = 1
// HELP: pcmap:   lazy_tables (bool) = 1
// HELP: pcmap:   answer_map_kib (int) = 256
// HELP: pcmap:   handle_segv (bool) = 1
// HELP: pcmap:   handle_sigbus (bool) = 1
// HELP: pcmap:   handle_sigill (bool) = 1
// HELP: pcmap:   handle_sigtrap (bool) = 0
// HELP: pcmap:   use_sigaltstack (bool) = 1
// HELP: pcmap:   symbolize (bool) = 1
// HELP: pcmap:   symbolizer_path (string) =
// HELP: pcmap:   stack_depth (int) = 32
// HELP: pcmap:   trace_atomics (bool) = 0
// HELP: pcmap:   trace_hz (int) = 1000
// HELP: pcmap:   trace_top (int) = 10
// HELP: pcmap:   trace_skid (int) = 15
// HELP: pcmap:   report_functions (bool) = 0
// HELP: pcmap:   report_path (string) =
// HELP: pcmap:   report_format (string) = text
// HELP: main done
// Options are read even by a program that registers nothing. Linked by hand,
// without the drivers' defaults, the fault reporter is off.
// RUN: env PCMAP_OPTIONS=help=1 %run %t/prog-plain 2>&1 | FileCheck %s --check-prefix=HELP-PLAIN
// HELP-PLAIN: pcmap:   handle_segv (bool) = 0
// HELP-PLAIN: pcmap:   handle_sigbus (bool) = 0
// HELP-PLAIN: pcmap:   handle_sigill (bool) = 0

// Every type of option, set and badly set.
// RUN: env PCMAP_OPTIONS='help=1 handle_segv=no trace_hz=250 report_path="a b" stack_depth=-1' %run %t/prog 2>&1 | FileCheck %s --check-prefix=SET
// SET: pcmap:   handle_segv (bool) = 0
// SET: pcmap:   stack_depth (int) = -1
// SET: pcmap:   trace_hz (int) = 250
// SET: pcmap:   report_path (string) = a b
// RUN: env PCMAP_OPTIONS='handle_sigbus=maybe,trace_top=12x,trace_hz=99999999999,report_format=' %run %t/prog 2>&1 | FileCheck %s --check-prefix=BADTYPES
// BADTYPES: pcmap: warning: bad value 'maybe' for option 'handle_sigbus' in PCMAP_OPTIONS (ignored)
// BADTYPES: pcmap: warning: bad value '12x' for option 'trace_top' in PCMAP_OPTIONS (ignored)
// BADTYPES: pcmap: warning: bad value '99999999999' for option 'trace_hz' in PCMAP_OPTIONS (ignored)
// BADTYPES: pcmap: warning: bad value '' for option 'report_format' (text, csv or json); using text
// BADTYPES: main done

// RUN: env PCMAP_OPTIONS=verbosity=2 %run %t/prog 2>&1 | FileCheck %s --check-prefix=V2
// RUN: env PCMAP_OPTIONS='help=0,verbosity=2' %run %t/prog 2>&1 | FileCheck %s --check-prefix=V2
// RUN: env PCMAP_OPTIONS='help=no verbosity=2' %run %t/prog 2>&1 | FileCheck %s --check-prefix=V2
// A program that asks nothing has its sections registered, not decoded
// (lazy_tables); with lazy_tables=0, registration decodes them.
// V2-DAG: pcmap: registered pcmap_atomics1 of {{.*}}/prog{{(-defaults)?}}: {{[0-9]+}} bytes, decoded at the first query
// V2-DAG: pcmap: registered pcmap_functions1 of {{.*}}/prog{{(-defaults)?}}: {{[0-9]+}} bytes, decoded at the first query
// V2: main done
// RUN: env PCMAP_OPTIONS=verbosity=2:lazy_tables=0 %run %t/prog 2>&1 | FileCheck %s --check-prefix=EAGER
// EAGER-DAG: pcmap: registered pcmap_atomics1 of {{.*}}/prog: 1 entries
// EAGER-DAG: pcmap: registered pcmap_functions1 of {{.*}}/prog: {{[23]}} entries
// EAGER: main done

// RUN: env PCMAP_OPTIONS='bogus=1:verbosity=x:verbosity=2:log_path' %run %t/prog 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: pcmap: warning: unknown option 'bogus' in PCMAP_OPTIONS (ignored)
// BAD: pcmap: warning: bad value 'x' for option 'verbosity' in PCMAP_OPTIONS (ignored)
// BAD: pcmap: warning: option without a value 'log_path' in PCMAP_OPTIONS (ignored)
// BAD: pcmap: registered
// BAD: main done

// RUN: env PCMAP_OPTIONS=verbosity=2:log_path=stdout %run %t/prog 2>/dev/null | FileCheck %s --check-prefix=V2
// RUN: env PCMAP_OPTIONS=verbosity=2:log_path=%t/log %run %t/prog > %t/out 2>&1
// RUN: cat %t/log.* | FileCheck %s --check-prefix=V2FILE
// RUN: FileCheck %s --check-prefix=QUIET < %t/out
// V2FILE: pcmap: registered
// QUIET-NOT: pcmap:
// QUIET: main done
// RUN: env PCMAP_OPTIONS=log_path=%t/no/such/dir/log %run %t/prog 2>&1 | FileCheck %s --check-prefix=NOLOG
// NOLOG: pcmap: warning: cannot open log_path '{{.*}}no/such/dir/log.{{[0-9]+}}'; writing to stderr
// NOLOG: main done

// The program's own defaults, which PCMAP_OPTIONS overrides.
// RUN: %run %t/prog-defaults 2>&1 | FileCheck %s --check-prefix=V2
// RUN: env PCMAP_OPTIONS=verbosity=0 %run %t/prog-defaults 2>&1 | FileCheck %s --check-prefix=QUIET

#include <pcmap/pcmap.h>
#include <stdio.h>

#ifdef DEFAULTS
const char *__pcmap_default_options(void) { return "verbosity=2"; }
#endif

#ifndef NO_METADATA
__attribute__((noinline)) int get(int *p) {
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
#endif

int main(void) {
#ifndef NO_METADATA
  int x = 0;
  get(&x);
#endif
  printf("main done\n");
  return 0;
}
