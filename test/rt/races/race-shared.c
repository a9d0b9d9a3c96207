// What the race detector says of memory that is not only the process's
// threads' (docs/Races.md): a location in a shared mapping (MAP_SHARED),
// which another process or the kernel (an io_uring ring) may write, is
// not reported by default, only counted in the summary; race_shared=1
// reports it like any other. A thread's writes to private memory are
// reported whatever race_shared says. The kernel's clock data ([vvar],
// which the vDSO reads) is never reported: the detector cannot even read
// that mapping (process_vm_readv refuses it), and a race on it would be
// left out as the kernel's. Inputs/racy_shared.c reads a plain counter
// that a child process (shared), a thread (private) or the kernel (vvar)
// changes; run_until.py runs it until the checks catch a change.
// Not under the sanitizers or qemu-user (race-detect.c says why).
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/../Inputs/racy_shared.c -o %t/shared
// DEFINE: %{opts} = detect_races=1:race_hz=1000:race_delay_us=100
// DEFINE: %{until} = %python %S/../Inputs/run_until.py 5

// RUN: env PCMAP_OPTIONS=%{opts} %{until} "on shared memory not reported" %run %t/shared 1 | FileCheck %s --check-prefix=SHARED
// SHARED-NOT: WARNING
// SHARED:     racy_shared: done (1)
// SHARED-NEXT: pcmap: data races: 0 found ({{[0-9]+}} detections, 0 dropped) in {{[0-9]+}} checks of plain accesses, 100 us each; 1 on shared memory not reported (race_shared=1 reports it)
// SHARED-NEXT: exit status: 0

// RUN: env PCMAP_OPTIONS=%{opts}:race_shared=1 %{until} WARNING %run %t/shared 1 | FileCheck %s --check-prefix=REPORTED
// REPORTED:      WARNING: pcmap: data race (pid={{[0-9]+}})
// REPORTED:        Location is /dev/zero (deleted)+0x0
// REPORTED:      SUMMARY: pcmap: data race {{.*}}racy_shared.c:[[#]]:[[#]] in read_counter
// REPORTED:      pcmap: data races: {{[1-9]}} found ({{[0-9]+}} detections, 0 dropped) in {{[0-9]+}} checks of plain accesses, 100 us each{{$}}
// REPORTED:      exit status: 66

// RUN: env PCMAP_OPTIONS=%{opts} %{until} WARNING %run %t/shared 1 private | FileCheck %s --check-prefix=PRIVATE
// PRIVATE:      WARNING: pcmap: data race (pid={{[0-9]+}})
// PRIVATE:        Location is heap
// PRIVATE:      exit status: 66

// RUN: env PCMAP_OPTIONS=%{opts}:race_shared=1 %run %t/shared 1 vvar 2>&1 | FileCheck %s --check-prefix=VVAR
// VVAR-NOT: WARNING
// VVAR:     pcmap: data races: 0 found
