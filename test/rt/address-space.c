// The tables' address space: reserved read-only (no memory and no commit
// charge, even under strict overcommit, until tables are written), never
// more than a sixteenth of RLIMIT_AS, and when there is none to be had,
// one warning and UNKNOWN answers, never an empty NO.
// Regression test: under an 8 GiB RLIMIT_AS the runtime took 4 GiB and
// the program's own 6 GiB mapping failed; under 1 GiB it reserved nothing
// and answered every query with nothing, silently; its 64 GiB reservation
// was writable, charged in full under vm.overcommit_memory=2.

// RUN: %pcmap-clang -O1 -fsanitize-metadata=all %S/Inputs/address_space.c -o %t
// (The function starts with its atomic on x86-64, not on AArch64: YES or
// NO, never UNKNOWN, where there are tables.)

// Read-only, and 64 GiB without a limit. (The sanitizers' shadow memory is
// larger; so are their own limits. Under an emulator, RLIMIT_AS is the
// emulator's, and its address space is not the program's.)
// RUN: %if !sanitizer %{ env PCMAP_OPTIONS=verbosity=2 %run %t mappings 2>&1 | FileCheck %s --check-prefix=NOLIMIT %}
// NOLIMIT: pcmap: tables: 65536 MiB of address space reserved
// NOLIMIT: largest mapping: {{[0-9]+}} MiB r--p
// NOLIMIT: function f0000: covered; is_atomic_pc: {{YES|NO}}

// An 8 GiB limit: the tables take 512 MiB and the program's 6 GiB mapping
// succeeds, as in the plain build.
// RUN: %if !sanitizer && !emulator %{ env PCMAP_OPTIONS=verbosity=2 %run %t limit 8192 map 6144 2>&1 | FileCheck %s --check-prefix=LIMIT8G %}
// LIMIT8G: pcmap: tables: 512 MiB of address space reserved (a sixteenth at most of RLIMIT_AS, 8192 MiB)
// LIMIT8G: mmap of 6144 MiB: ok
// LIMIT8G: function f0000: covered; is_atomic_pc: {{YES|NO}}

// 1 GiB: 64 MiB, and the tables work.
// RUN: %if !sanitizer && !emulator %{ env PCMAP_OPTIONS=verbosity=2 %run %t limit 1024 query 2>&1 | FileCheck %s --check-prefix=LIMIT1G %}
// LIMIT1G: pcmap: tables: 64 MiB of address space reserved (a sixteenth at most of RLIMIT_AS, 1024 MiB)
// LIMIT1G: function f0000: covered; is_atomic_pc: {{YES|NO}}

// 12 MiB: no room; said once, and every answer is UNKNOWN.
// RUN: %if !sanitizer && !emulator %{ %run %t limit 12 query 2>&1 | FileCheck %s --check-prefix=NOROOM %}
// NOROOM:      pcmap: warning: no address space for the tables (they may take a sixteenth of RLIMIT_AS, 12 MiB, and need 1 MiB); every query answers UNKNOWN
// NOROOM-NOT:  pcmap:
// NOROOM:      function f0000: not covered; is_atomic_pc: UNKNOWN

// tables_limit_mb caps the reservation.
// RUN: env PCMAP_OPTIONS=verbosity=2:tables_limit_mb=3 %run %t query 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: pcmap: tables: 2 MiB of address space reserved
// OPTION: function f0000: covered; is_atomic_pc: {{YES|NO}}
