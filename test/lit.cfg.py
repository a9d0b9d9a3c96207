# -*- Python -*-
# lit configuration for pcmap. Tool paths come from lit.site.cfg.py, which
# CMake generates for the LLVM the project was built against.

import os
import re
import shutil
import subprocess

import lit.formats
import lit.util

config.name = "pcmap"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
# test/corpus is a stage of scripts/test.sh of its own (test/corpus/README.md).
config.excludes = ["Inputs", "support", "Unit", "corpus", "CMakeLists.txt",
                   "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pcmap_obj_root, "test")

# A cross-built runtime's configuration (test/<triple>/lit.site.cfg.py, from
# cmake/PCMapCrossRuntime.cmake): the suites that run programs (rt, e2e),
# compiled with --target=<triple> and linked with that target's runtime; %run
# runs them (qemu-user). Natively, %run is empty.
target = config.pcmap_target
target_flag = " --target=%s" % target if target else ""
config.substitutions.append(("%run", config.pcmap_run))
# Programs run under an emulator (qemu-user): its CPU clocks include the
# emulator's own work, so no test can hold samples against CPU time there.
if config.pcmap_run:
    config.available_features.add("emulator")
if target:
    config.name = "pcmap-%s" % target
    config.test_exec_root = os.path.join(config.test_exec_root, target)
    config.excludes += ["CodeGen", "Driver", "Instrumentation", "report",
                        "fuzz", "install"]
arch = (target or os.uname().machine).split("-")[0]
config.available_features.add("target-%s" % arch)
config.substitutions.append(("%target-arch", arch))
# The code model of pointer-sized relative PCs: medium on x86-64; AArch64
# has none, and its large model is position-dependent.
config.substitutions.append(
    ("%pointer-pcs-model",
     "-mcmodel=large -fno-pic" if arch == "aarch64" else "-mcmodel=medium"))
# Atomics as instructions, not calls of outline-atomic helpers (AArch64).
config.substitutions.append(
    ("%inline-atomics", "-mno-outline-atomics" if arch == "aarch64" else ""))

# The matching LLVM's tools (FileCheck, not, llvm-objdump, ...) come first.
path = os.path.pathsep.join(
    [config.llvm_tools_dir, config.pcmap_bin_dir, config.environment.get("PATH", os.environ["PATH"])]
)
config.environment["PATH"] = path
for var in ["PCMAP_CLANG", "PCMAP_CLANGXX", "PCMAP_PLUGIN", "PCMAP_OPTIONS"]:
    config.environment.pop(var, None)

plugin = config.pcmap_plugin
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%opt-pcmap", "opt -load-pass-plugin=%s" % plugin))
config.substitutions.append(("%pcmap-clang\\+\\+", os.path.join(config.pcmap_bin_dir, "pcmap-clang++") + target_flag))
config.substitutions.append(("%pcmap-clang", os.path.join(config.pcmap_bin_dir, "pcmap-clang") + target_flag))
config.substitutions.append(("%pcmap-report", os.path.join(config.pcmap_bin_dir, "pcmap-report")))
# A sanitizer build of the runtime alone has no pcmap-report.
if os.path.exists(os.path.join(config.pcmap_bin_dir, "pcmap-report")):
    config.available_features.add("pcmap-report")
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++") + target_flag))
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang") + target_flag))
config.substitutions.append(("%llc", "llc" + (" -mtriple=%s" % target if target else "")))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%test-support", os.path.join(config.test_source_root, "support")))
config.substitutions.append(("%llvm-version", config.llvm_version_major))
config.substitutions.append(("%pcmap-obj-root", config.pcmap_obj_root))
# The runtime, for tests that link it by hand.
libdir = os.path.join(config.pcmap_obj_root, "lib", "pcmap", target)
config.substitutions.append(("%pcmap-rt-a", os.path.join(libdir, "libpcmap_rt.a")))
config.substitutions.append(("%pcmap-rt-so", os.path.join(libdir, "libpcmap_rt.so")))
config.substitutions.append(("%pcmap-lib", libdir))
config.substitutions.append(("%pcmap-include", os.path.join(config.pcmap_src_root, "include")))

# Sanitizer builds (PCMAP_SANITIZE=address,undefined or thread): the runtime
# calls into the sanitizers' runtimes, so every program linked with it by
# hand needs %link-sanitizers (the drivers add it themselves; test/rt's
# %rt-static-lib and %rt-shared-lib include it). Tests that cannot work under
# a sanitizer say "UNSUPPORTED: sanitize-<name>" and why. Only the suites that
# involve the runtime run in these builds: the compiler's and pcmap-report's
# output does not depend on how the runtime is built.
sanitizers = [s for s in config.pcmap_sanitize.split(",") if s]
config.substitutions.append(
    ("%link-sanitizers", "-fsanitize=%s" % ",".join(sanitizers) if sanitizers else ""))
for s in sanitizers:
    config.available_features.add("sanitize-%s" % s)
if sanitizers:
    config.available_features.add("sanitizer")
    # The fault reporter's tests need the fault signals: the sanitizers do
    # not take them (they still report every error they detect).
    signals = "handle_segv=0:handle_sigbus=0:handle_sigill=0:handle_sigfpe=0"
    config.environment["ASAN_OPTIONS"] = signals
    config.environment["TSAN_OPTIONS"] = signals
    config.environment["UBSAN_OPTIONS"] = signals + ":print_stacktrace=1"
    config.excludes += ["CodeGen", "Driver", "Instrumentation", "report",
                        "install"]

config.available_features.add("llvm-%s" % config.llvm_version_major)
if shutil.which("ld.bfd"):
    config.available_features.add("gnu-ld")
if os.path.exists(os.path.join(config.llvm_tools_dir, "ld.lld")):
    config.available_features.add("lld")
for linker in ("gold", "mold"):
    if shutil.which("ld." + linker):
        config.available_features.add(linker)
# test/Driver/libtool.test: a libtool project configured with the drivers.
if all(shutil.which(t) for t in ("libtoolize", "autoreconf", "make")):
    config.available_features.add("libtool")
# Tests that make setuid-root programs and run them as another user.
if hasattr(os, "geteuid") and os.geteuid() == 0:
    config.available_features.add("root")
# test/rt/startup-files.c and bench/startup.py count the system calls of
# start-up: strace, where ptrace is allowed.
def _strace_works():
    strace = shutil.which("strace")
    if not strace:
        return False
    try:
        return subprocess.run([strace, "-f", "-o", os.devnull, "true"],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL,
                              timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
if _strace_works():
    config.available_features.add("strace")
if shutil.which("setpriv"):
    config.available_features.add("setpriv")
# test/install builds the Debian package with cpack and unpacks it.
if shutil.which("dpkg-deb") and shutil.which("cpack"):
    config.available_features.add("dpkg-deb")
# test/install/lintian.test checks that package against Debian's policy.
if shutil.which("lintian"):
    config.available_features.add("lintian")
# The runtimes the build cross-builds, installs and packages
# (cmake/PCMapCrossRuntime.cmake): cross-runtime-<triple>.
for triple in getattr(config, "pcmap_cross_targets", "").split():
    config.available_features.add("cross-runtime-%s" % triple)
# qemu-user and Debian's cross libraries, to run such a program from a
# native test (%qemu-aarch64).
if shutil.which("qemu-aarch64") and os.path.isdir("/usr/aarch64-linux-gnu"):
    config.available_features.add("qemu-aarch64")
    config.substitutions.append(
        ("%qemu-aarch64", "qemu-aarch64 -L /usr/aarch64-linux-gnu"))
# perf as the reference for the tracer's stacks (test/rt/tracer-perf.c):
# perf record with a software clock and DWARF call graphs, which
# perf_event_paranoid may forbid.
def _perf_records():
    if not shutil.which("perf"):
        return False
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        try:
            return subprocess.run(
                ["perf", "record", "-q", "-e", "cpu-clock", "--call-graph",
                 "dwarf", "-o", os.path.join(d, "perf.data"), "--", "true"],
                capture_output=True, timeout=60).returncode == 0
        except (OSError, subprocess.SubprocessError):
            return False


if _perf_records():
    config.available_features.add("perf")
# The tracer's clock events that sample kernel mode (trace_kernel_events):
# perf_event_paranoid at most 1 (or root), and a kernel with perf's
# sigtrap (5.13).
def _kernel_clock_events():
    try:
        with open("/proc/sys/kernel/perf_event_paranoid") as f:
            paranoid = int(f.read())
        release = [int(x) for x in
                   re.match(r"(\d+)\.(\d+)", os.uname().release).groups()]
    except (OSError, ValueError, AttributeError):
        return False
    privileged = hasattr(os, "geteuid") and os.geteuid() == 0
    return (paranoid <= 1 or privileged) and release >= [5, 13]


if _kernel_clock_events() and "emulator" not in config.available_features:
    config.available_features.add("kernel-clock-events")
# gperftools' CPU profiler beside the tracer (test/rt/tracer-gperftools.c).
if shutil.which("google-pprof") and any(
        os.path.exists(os.path.join(d, "libprofiler.so"))
        for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
                  "/usr/lib64", "/usr/lib")):
    config.available_features.add("gperftools")
# Boehm GC, whose roots are a program's static data (test/rt/gc-roots.c).
# The target's own library: Debian has no arm64 cross package of it.
if os.path.exists("/usr/include/gc.h") and os.path.exists(
        "/usr/lib/%s-linux-gnu/libgc.so" % arch):
    config.available_features.add("boehm-gc")
if shutil.which("chromium"):
    config.available_features.add("chromium")
if shutil.which("ccache"):
    config.available_features.add("ccache")
# test/Driver/meson.test: Meson (and Ninja) configure with the drivers.
if shutil.which("meson") and shutil.which("ninja"):
    config.available_features.add("meson")
# go tool pprof reads pcmap-report trace's pprof profiles
# (test/report/trace-pprof-go.test).
if shutil.which("go"):
    config.available_features.add("go-pprof")


# Profile-guided builds (-fprofile-instr-generate/-use, for
# -fsplit-machine-functions): llvm-profdata and clang's profile runtime.
def _profile_runtime():
    clang = os.path.join(config.llvm_tools_dir, "clang")
    profdata = os.path.join(config.llvm_tools_dir, "llvm-profdata")
    if not os.path.exists(profdata):
        return False
    import subprocess
    try:
        # The builtins' path names the directory and the file name pattern
        # of clang's runtimes, in either layout (per target or per OS).
        out = subprocess.run([clang, "--rtlib=compiler-rt",
                              "--print-libgcc-file-name"] +
                             (["--target=%s" % target] if target else []),
                             capture_output=True, text=True, timeout=60)
        builtins = out.stdout.strip()
        return "builtins" in os.path.basename(builtins) and os.path.exists(
            os.path.join(os.path.dirname(builtins),
                         os.path.basename(builtins).replace("builtins",
                                                            "profile")))
    except (OSError, subprocess.SubprocessError):
        return False


if _profile_runtime():
    config.available_features.add("profile-runtime")


# Basic-block sections (function fragments): clang 19 takes
# -fbasic-block-sections=all for x86-64 ELF only, later clangs for AArch64
# too.
def _basic_block_sections():
    import subprocess
    clang = os.path.join(config.llvm_tools_dir, "clang")
    try:
        out = subprocess.run([clang, "-fbasic-block-sections=all", "-x", "c",
                              "-c", "-o", os.devnull, os.devnull] +
                             (["--target=%s" % target] if target else []),
                             capture_output=True, text=True, timeout=60)
        return out.returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


if _basic_block_sections():
    config.available_features.add("basic-block-sections")

# The libFuzzer harnesses (fuzz/), each run for a bounded time by test/fuzz.
if config.pcmap_fuzz_bin_dir:
    config.available_features.add("fuzzers")
    fuzz_src = os.path.join(config.pcmap_src_root, "fuzz")
    config.substitutions.append(
        ("%fuzz-run", "%s %s --seconds %s" % (
            config.python_executable, os.path.join(fuzz_src, "run_fuzzer.py"),
            config.pcmap_fuzz_seconds)))
    config.substitutions.append(("%fuzz-bin", config.pcmap_fuzz_bin_dir))
    config.substitutions.append(("%fuzz-corpus", os.path.join(fuzz_src, "corpus")))
    config.substitutions.append(
        ("%fuzz-summary", os.path.join(config.pcmap_obj_root, "fuzz", "summary")))
