#!/usr/bin/env python3
"""Builds real concurrent software from Debian's source packages with pcmap
and holds what it built against the disassembler.

For each recipe below: fetch the source package with `apt-get source`
(cached under the build directory), build it with its own build system and
pcmap-clang/pcmap-clang++ as the compilers at -O2 -g -fsanitize-metadata=all
(or the recipe's variant), run its own test suite (time-bounded), and run
`test/support/check_pcmap.py corpus` on every shared object and executable it
built. A package's checks:

  build       the package and its tests build
  tests       its test suite passes
  coverage    every ELF file it built has pcmap tables (a flag a build
              system drops shows here)
  wrong-no    no locked instruction is missing from the table of a function
              whose entry claims complete atomics (a NO that would be wrong)
  precision   every table entry starts an instruction of a complete function
  recall      every locked instruction in a covered function is recorded
              (only for recipes whose atomics the plugin must all record)
  decoder     the runtime's memory-access decoder agrees with LLVM's
              disassembler on every instruction of every ELF file it built
              (test/tools/access-check)
  invariance  the objects built without -fsanitize-metadata have the same
              code and relocations in every function (liburcu, ck)

A check named in test/corpus/expected-failures fails as XFAIL (counted as
passed; an XPASS is reported and counted as passed too, so that the list can
be shortened). A package the archive cannot serve is SKIPPED, by name, with
all its checks. The last line is "corpus: N passed, N failed, N skipped".

Usage: corpus.py [--build BUILD_DIR] [--work DIR] [--only NAME,...|ci] [--table]
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHECKER = os.path.join(ROOT, "test", "support", "check_pcmap.py")
SOURCES_FILE = "/etc/apt/sources.list.d/pcmap-corpus-src.sources"
# What the recipes run besides the compilers (Debian package per command).
BUILD_TOOLS = {"autoreconf": "autoconf", "aclocal": "automake",
               "libtoolize": "libtool", "make": "make",
               "dpkg-source": "dpkg-dev", "pkg-config": "pkg-config",
               "cmake": "cmake", "xz": "xz-utils", "bzip2": "bzip2",
               "meson": "meson", "ninja": "ninja-build", "nasm": "nasm",
               "aomenc": "aom-tools", "timeout": "coreutils"}


class Recipe:
    """One build of one source package. flags: the compile flags; variant
    builds of a package share its download."""

    def __init__(self, name, source, build, test, flags="-O2 -g",
                 ldflags="", recall=False, flag_in_cc=False, plain=0,
                 host=None):
        self.name, self.source = name, source
        self.build, self.test = build, test  # lists of shell commands
        self.flags, self.ldflags = flags, ldflags
        self.recall = recall
        # Pass -fsanitize-metadata=all in $CC itself: libtool drops it from
        # the link of a shared library, where an LTO build needs it.
        self.flag_in_cc = flag_in_cc
        # The first `plain` build commands, run again in a second tree
        # without -fsanitize-metadata, make the objects of the invariance
        # check (0: no such check).
        self.plain = plain
        # Another machine's triple: the drivers compile with --target=HOST
        # and link that target's cross-built runtime; the commands see
        # $HOST and $RUN (qemu-user with Debian's cross libraries), which
        # runs the programs built.
        self.host = host


# Shell variables the commands see: $CC, $CXX, $CFLAGS, $CXXFLAGS, $LDFLAGS,
# $JOBS, $CORPUS_DIR (this directory). Each command runs in the unpacked
# source tree.
# Debian's patches touch Makefile.am: regenerate, as Debian's build does.
AUTOTOOLS = ['autoreconf -fi >autoreconf.out 2>&1',
             './configure CC="$CC" CXX="$CXX" CFLAGS="$CFLAGS" '
             'CXXFLAGS="$CXXFLAGS" LDFLAGS="$LDFLAGS" --disable-static '
             '>configure.out']
CMAKE = ('cmake -S . -B build -DCMAKE_BUILD_TYPE=None '
         '-DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" '
         '-DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" '
         '-DCMAKE_EXE_LINKER_FLAGS="$LDFLAGS" '
         '-DCMAKE_SHARED_LINKER_FLAGS="$LDFLAGS" ')
# meson takes $CC, $CFLAGS, $CXX, $CXXFLAGS and $LDFLAGS from the
# environment at setup; `plain` adds no flags of its own (no -O, no -g).
MESON = 'meson setup build --buildtype=plain --wrap-mode=nodownload '

RECIPES = [
    # Userspace RCU: its atomics and barriers are x86 inline asm
    # (urcu/uatomic/x86.h, urcu/arch/x86.h). `make check` builds the unit,
    # regression and benchmark programs and runs the unit tests.
    Recipe("liburcu", "liburcu",
           AUTOTOOLS + ['make -j$JOBS >make.out'],
           ['make -j$JOBS check >check.out 2>&1'], recall=True, plain=3),
    # The same at -flto=thin, linked by lld. The plugin instruments at the
    # link, so the flag must reach the link of the shared libraries too.
    Recipe("liburcu-thinlto", "liburcu",
           AUTOTOOLS + ['make -j$JOBS >make.out'],
           ['make -j$JOBS check >check.out 2>&1'],
           flags="-O2 -g -flto=thin", ldflags="-flto=thin -fuse-ld=lld",
           recall=True, flag_in_cc=True),
    # Concurrency Kit: spinlocks, rings, epochs in x86 inline asm
    # (include/gcc/x86_64/ck_pr.h). Its own configure; the regressions
    # build and run from regressions/ ("make check" as Debian runs it).
    Recipe("ck", "ck",
           ['CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" ./configure '
            '--cores=2 >configure.out',
            'make -j$JOBS >make.out 2>&1',
            'make -j$JOBS regressions >regressions.out 2>&1'],
           # All of Debian's directories but epoch: ck_epoch_section_2 can
           # spin for good on a loaded 2-core machine (seen once in CI here,
           # 15 minutes of CPU); its programs are still built and checked.
           ['make -C regressions check DIR="array backoff barrier bitmap '
            'brlock bytelock cc cohort ec fifo hp hs rhs ht pflock pr queue '
            'ring rwlock swlock sequence spinlock stack tflock" '
            '>check.out 2>&1'], recall=True,
           plain=2),
    # mimalloc: C11 atomics (include/mimalloc-atomic.h); its three tests.
    Recipe("mimalloc", "mimalloc",
           [CMAKE + '-DMI_BUILD_TESTS=ON -DMI_BUILD_STATIC=OFF '
            '-DMI_BUILD_OBJECT=OFF >configure.out',
            'cmake --build build -j$JOBS >make.out'],
           ['cd build && ctest --output-on-failure >../check.out 2>&1']),
    # The same at -O0.
    Recipe("mimalloc-O0", "mimalloc",
           [CMAKE + '-DMI_BUILD_TESTS=ON -DMI_BUILD_STATIC=OFF '
            '-DMI_BUILD_OBJECT=OFF >configure.out',
            'cmake --build build -j$JOBS >make.out'],
           ['cd build && ctest --output-on-failure >../check.out 2>&1'],
           flags="-O0 -g"),
    # jemalloc: C11 atomics (include/jemalloc/internal/atomic_c11.h);
    # its unit tests.
    Recipe("jemalloc", "jemalloc",
           ['./configure CC="$CC" CXX="$CXX" CFLAGS="$CFLAGS" '
            'CXXFLAGS="$CXXFLAGS" LDFLAGS="$LDFLAGS" --with-lg-page=12 '
            '--with-lg-hugepage=21 --disable-doc --disable-static '
            '>configure.out',
            'make -j$JOBS >make.out',
            'make -j$JOBS tests_unit >tests.out'],
           ['make check_unit >check.out 2>&1']),
    # zstd: an assembly source in the library, huf_decompress_amd64.S
    # (Huffman decoding with BMI2, chosen at run time), which the makefiles
    # compile with $CC and $ASFLAGS (libzstd.mk adds $CFLAGS to them, so the
    # driver gets -fsanitize-metadata=all with a .S input); the thread pool
    # of multi-threaded compression. Plain make, as upstream documents it:
    # the static and shared libraries (lib-release, multi-threaded), the
    # `zstd` program (programs/ compiles the library's sources again, the
    # .S too), two of examples/ linked with the shared library, and the
    # tests' datagen and poolTests. The flags come from the environment, so
    # that the makefiles still add theirs (-fPIC for the shared library).
    Recipe("zstd", "libzstd",
           ['make -C lib -j$JOBS lib-release >make.out 2>&1',
            'make -C programs -j$JOBS zstd-release >programs.out 2>&1',
            'make -C tests -j$JOBS datagen poolTests >tests.out 2>&1',
            'for x in streaming_compression streaming_decompression; do '
            '$CC $CFLAGS -Ilib examples/$x.c -o examples/$x-shared -Llib '
            '-lzstd $LDFLAGS || exit; done >examples.out 2>&1'],
           # Round trips (compress, decompress, compare) of the library's
           # and programs' sources: by the zstd program (two compression
           # threads, then the default), by the examples through
           # libzstd.so; a one-second benchmark; the thread pool's tests;
           # upstream's tests/playTests.sh without its large-data tests.
           ['cat lib/*/*.c lib/*/*.h programs/*.c >rt.in; : >check.out',
            '(./programs/zstd -q -f -T2 -3 rt.in -o rt.zst && '
            './programs/zstd -q -f -d rt.zst -o rt.out && cmp rt.in rt.out '
            '&& ./programs/zstd -q -f -19 rt.in -o rt19.zst && '
            './programs/zstd -q -f -d rt19.zst -o rt19.out && '
            'cmp rt.in rt19.out && ./programs/zstd -q -t rt.zst rt19.zst) '
            '>roundtrip.out 2>&1 && '
            'echo "PASS: zstd round trips (-T2 -3, -19)" >>check.out',
            '(export LD_LIBRARY_PATH=lib; '
            'examples/streaming_compression-shared rt.in 3 2 && '
            'examples/streaming_decompression-shared rt.in.zst >rt.ex && '
            'cmp rt.in rt.ex) >shared.out 2>&1 && '
            'echo "PASS: libzstd.so round trip (2 workers)" >>check.out',
            './programs/zstd -b1 -i1 rt.in >bench.out 2>&1 && '
            'echo "PASS: zstd -b1 -i1" >>check.out',
            'tests/poolTests >pool.out 2>&1 && '
            'echo "PASS: poolTests" >>check.out',
            '(cd tests && ZSTD_BIN=../programs/zstd DATAGEN_BIN=./datagen '
            './playTests.sh) >playtests.out 2>&1 && '
            'echo "PASS: playTests.sh" >>check.out']),
    # musl: a libc with assembly sources (.s: string, math, setjmp, clone,
    # dlsym, TLS descriptors, crti/crtn; configure's ADD_CFI pipes them
    # through awk into `$CC -x assembler -c -`) and its atomics in x86
    # inline asm (arch/x86_64/atomic_arch.h). Its own configure and make:
    # libc.so (which is also its dynamic linker) and libc.a. Both links
    # pass -nostdlib (and libc.so -shared), for which the drivers link no
    # pcmap runtime: the libc is instrumented, its registration calls stay
    # weak and unresolved. Its tests: musl-threads.c (beside this file),
    # built against the tree's headers and linked with its libc.so and,
    # statically, with its libc.a, both run.
    Recipe("musl", "musl",
           ['./configure CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" '
            '--prefix=/usr --syslibdir=/lib --disable-wrapper '
            '>configure.out',
            'make -j$JOBS >make.out 2>&1',
            '$CC $CFLAGS -nostdinc -isystem arch/x86_64 -isystem '
            'arch/generic -isystem obj/include -isystem include -c '
            '"$CORPUS_DIR/musl-threads.c" -o musl-threads.o',
            '$CC $LDFLAGS -nostdlib lib/Scrt1.o lib/crti.o musl-threads.o '
            'lib/libc.so -lgcc lib/crtn.o '
            '-Wl,--dynamic-linker="$PWD/lib/libc.so" -o musl-threads',
            '$CC $LDFLAGS -static -nostdlib lib/crt1.o lib/crti.o '
            'musl-threads.o lib/libc.a -lgcc -lgcc_eh lib/crtn.o '
            '-o musl-threads-static'],
           ['./musl-threads >check.out 2>&1',
            './musl-threads-static >>check.out 2>&1'], recall=True),
    # dav1d, an AV1 decoder built with meson: C11 atomics in its thread
    # pool and frame and tile threading (src/thread_task.c, decode.c,
    # lib.c, picture.c, ref.h). Its assembly (x86/*.asm) is assembled by
    # nasm, not by the driver: those objects, linked into libdav1d.so and
    # checkasm, carry no tables. 8-bit only (-Dbitdepths=8: half the
    # build). The build also makes tests/checkasm, which meson builds only
    # for `meson test`. Tests: `meson test` (checkasm, which compares the
    # C functions with the asm ones, and the five public headers' tests);
    # then 32 frames of the tree's sources as 256x128 video, encoded by
    # aomenc (2 tile columns) and decoded by aomdec (the reference) and by
    # the dav1d program with 4 threads and 3 frames in flight, with its
    # asm and with C only (--cpumask 0), the outputs compared.
    Recipe("dav1d", "dav1d",
           [MESON + '-Dbitdepths=8 >configure.out',
            'ninja -C build -j$JOBS all tests/checkasm >make.out'],
           ['meson test -C build --no-rebuild --print-errorlogs '
            '--num-processes $JOBS >check.out 2>&1',
            'cat src/*.c src/*.h tools/*.c tools/*/*.c >av1.yuv && '
            'aomenc --ivf --i420 -w 256 -h 128 --limit=32 --cpu-used=6 '
            '--tile-columns=1 --threads=2 -q -o av1.ivf av1.yuv '
            '>aomenc.out 2>&1 && aomdec --rawvideo -o av1-ref.yuv av1.ivf '
            '>>aomenc.out 2>&1',
            'build/tools/dav1d -q -i av1.ivf -o av1-dav1d.yuv --threads 4 '
            '--framedelay 3 >dav1d.out 2>&1 && cmp av1-ref.yuv '
            'av1-dav1d.yuv >>dav1d.out 2>&1 && '
            'echo "PASS: dav1d decodes as aomdec (4 threads)" >>check.out',
            'build/tools/dav1d -q -i av1.ivf -o av1-c.yuv --threads 4 '
            '--framedelay 3 --cpumask 0 >dav1d-c.out 2>&1 && cmp '
            'av1-ref.yuv av1-c.yuv >>dav1d-c.out 2>&1 && '
            'echo "PASS: dav1d decodes as aomdec (4 threads, C only)" '
            '>>check.out']),
    # liburcu cross-built for AArch64 (its atomics there are the compiler's
    # builtins: LSE or outline atomics, exclusives, acquire/release), its
    # unit tests built with `make check TESTS=` and run under qemu-user
    # (automake cannot run another machine's programs itself): every ELF
    # file checked as the others, the memory-access decoder held against
    # LLVM's AArch64 disassembler on all of them.
    Recipe("liburcu-aarch64", "liburcu",
           ['autoreconf -fi >autoreconf.out 2>&1',
            './configure --host=$HOST CC="$CC" CXX="$CXX" CFLAGS="$CFLAGS" '
            'CXXFLAGS="$CXXFLAGS" LDFLAGS="$LDFLAGS" --disable-static '
            '>configure.out',
            'make -j$JOBS >make.out',
            'make -j$JOBS check TESTS= >check-build.out 2>&1'],
           ['cd tests/unit && : >../../check.out && '
            'for t in test_arch test_uatomic test_urcu_multiflavor; do '
            'if [ -f .libs/$t ]; then p=.libs/$t; else p=./$t; fi; '
            'LD_LIBRARY_PATH=$PWD/../../src/.libs $RUN $p >$t.log 2>&1; '
            's=$?; cat $t.log >>../../check.out; '
            'if [ $s = 0 ]; then echo "PASS: $t" >>../../check.out; '
            'else echo "FAIL: $t (status $s)" >>../../check.out; exit 1; '
            'fi; done'],
           recall=True, host="aarch64-linux-gnu"),
    # moodycamel::ConcurrentQueue: C++11 atomics, header-only; its unit
    # tests (tests/unittests).
    Recipe("concurrentqueue", "concurrentqueue",
           ['$CXX -std=c++11 $CXXFLAGS -fno-elide-constructors -pthread '
            'tests/common/simplethread.cpp tests/common/systemtime.cpp '
            'tests/unittests/unittests.cpp -o unittests $LDFLAGS -lrt'],
           ['./unittests >check.out 2>&1']),
]


# The recipes scripts/test.sh (CI) runs by default (--only ci): a package
# with x86 inline-asm atomics, an invariance check and libtool (liburcu),
# the same cross-built for AArch64 and run under qemu-user (the decoder held
# against LLVM's AArch64 disassembler on a real package's files), and a
# meson build with C11 atomics and nasm (dav1d): about 10 minutes on the
# 2-core machine, against about 40 for all of them (test/corpus/README.md).
CI_RECIPES = ["liburcu", "liburcu-aarch64", "dav1d"]


def log(msg):
    print("corpus: " + msg, flush=True)


def run(cmd, cwd=None, env=None, timeout=None, shell=False):
    """Runs cmd; returns (exit status, output). A time-out is status 124."""
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, shell=shell,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=timeout,
                           start_new_session=True)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode("utf-8", "replace")
        return 124, out + "\n(timed out after %d s)" % timeout


def as_root(cmd):
    if os.geteuid() == 0:
        return cmd
    return ["sudo"] + cmd


# --------------------------------------------------------------------------
# Debian's source archive
# --------------------------------------------------------------------------


def _stanzas(text):
    """The stanzas of a deb822 file, as lists of (key, value) lines."""
    out, cur = [], []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur:
                out.append(cur)
            cur = []
            continue
        if line[0] in " \t" and cur:
            cur[-1] = (cur[-1][0], cur[-1][1] + "\n" + line)
            continue
        key, _, value = line.partition(":")
        cur.append((key.strip(), value.strip()))
    if cur:
        out.append(cur)
    return out


def source_entries(codename):
    """deb-src stanzas mirroring the machine's enabled `deb` entries of the
    release (URIs, suites, components and key kept), and whether deb-src
    entries for it exist already."""
    paths = sorted(glob.glob("/etc/apt/sources.list.d/*.sources"))
    lists = ["/etc/apt/sources.list"] + sorted(
        glob.glob("/etc/apt/sources.list.d/*.list"))
    mirrored, have_src = [], False
    for path in paths:
        if os.path.abspath(path) == SOURCES_FILE:
            continue
        try:
            text = open(path).read()
        except OSError:
            continue
        for st in _stanzas(text):
            d = dict(st)
            if d.get("Enabled", "yes").lower() == "no":
                continue
            suites = d.get("Suites", "").split()
            if not any(s.split("-")[0] == codename for s in suites):
                continue
            types = d.get("Types", "").split()
            if "deb-src" in types:
                have_src = True
            if "deb" in types:
                mirrored.append("\n".join(
                    "%s: %s" % (k, "deb-src" if k == "Types" else v)
                    for k, v in st))
    for path in lists:
        try:
            lines = open(path).read().splitlines()
        except OSError:
            continue
        for line in lines:
            words = line.split("#", 1)[0].split()
            if len(words) < 3:
                continue
            # deb [options] URI suite components
            rest = words[1:]
            opts = []
            if rest[0].startswith("["):
                while rest and not rest[0].endswith("]"):
                    opts.append(rest.pop(0))
                opts.append(rest.pop(0))
            if len(rest) < 2 or rest[1].split("-")[0] != codename:
                continue
            if words[0] == "deb-src":
                have_src = True
            elif words[0] == "deb":
                fields = [("Types", "deb-src"), ("URIs", rest[0]),
                          ("Suites", rest[1]),
                          ("Components", " ".join(rest[2:]))]
                for o in " ".join(opts).strip("[] ").split():
                    k, _, v = o.partition("=")
                    if k == "signed-by":
                        fields.append(("Signed-By", v))
                mirrored.append("\n".join("%s: %s" % kv for kv in fields))
    return mirrored, have_src


def setup_archive(llvm_version):
    """Adds deb-src entries if the machine has none, runs apt-get update,
    and installs the build tools the recipes need. Returns an error text
    or None."""
    missing = sorted({pkg for cmd, pkg in BUILD_TOOLS.items()
                      if not shutil.which(cmd)})
    if missing:
        log("installing build tools: " + " ".join(missing))
        rc, out = run([os.path.join(ROOT, "scripts", "install-deps.sh"),
                       llvm_version])
        if rc:
            return "scripts/install-deps.sh failed:\n" + out[-2000:]
    codename = ""
    try:
        for line in open("/etc/os-release"):
            if line.startswith("VERSION_CODENAME="):
                codename = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    if not codename:
        return "cannot tell the Debian release (/etc/os-release)"
    mirrored, have_src = source_entries(codename)
    if not have_src and not os.path.exists(SOURCES_FILE):
        if not mirrored:
            return "no apt entry of %s to take the source archive from" \
                % codename
        text = ("# Written by pcmap's test/corpus/corpus.py: Debian's "
                "source archive, mirroring the binary entries.\n" +
                "\n\n".join(mirrored) + "\n")
        log("adding deb-src entries (%d) in %s" % (len(mirrored),
                                                    SOURCES_FILE))
        with tempfile.NamedTemporaryFile("w", suffix=".sources",
                                         delete=False) as f:
            f.write(text)
            tmp = f.name
        rc, out = run(as_root(["install", "-m", "644", tmp, SOURCES_FILE]))
        os.unlink(tmp)
        if rc:
            return "cannot write %s: %s" % (SOURCES_FILE, out.strip())
        rc, out = run(as_root(["apt-get", "update", "-qq"]), timeout=600)
        if rc:
            return "apt-get update failed:\n" + out[-2000:]
    return None


def fetch(source, cache):
    """The .dsc of source in cache, downloading it if missing. Returns
    (dsc path, None) or (None, reason)."""
    d = os.path.join(cache, source)
    os.makedirs(d, exist_ok=True)

    def complete():
        for dsc in glob.glob(os.path.join(d, "*.dsc")):
            text = open(dsc).read()
            files = re.findall(r"^ [0-9a-f]{32} \d+ (\S+)$", text, re.M)
            if files and all(os.path.exists(os.path.join(d, f))
                             for f in files):
                return dsc
        return None
    dsc = complete()
    if dsc:
        return dsc, None
    # apt's download sandbox user must be able to write there.
    os.chmod(d, 0o777)
    rc, out = run(["apt-get", "source", "--download-only", "-qq", source],
                  cwd=d, timeout=600)
    dsc = complete()
    if rc or not dsc:
        # "E: Failed to fetch URL  404  Not Found [IP: ...]": the file and
        # the answer.
        failed = re.findall(r"^E: Failed to fetch \S*/(\S+)\s+(.*?)\s*"
                            r"(?:\[.*)?$", out, re.M)
        if failed:
            return None, "apt-get source: " + "; ".join(
                "%s: %s" % (urllib.parse.unquote(f), " ".join(why.split()))
                for f, why in failed)
        errors = [l for l in out.splitlines() if l.startswith("E:")]
        return None, "apt-get source failed: " + (
            "; ".join(errors) or out.strip()[-300:] or "status %d" % rc)
    return dsc, None


# --------------------------------------------------------------------------
# Building, testing, checking
# --------------------------------------------------------------------------


def elf_files(tree):
    """The linked ELF files (executables and shared objects) under tree,
    one path per file (symbolic links and CMake's and meson's probes left
    out)."""
    out, seen = [], set()
    for top, dirs, files in os.walk(tree):
        dirs[:] = sorted(x for x in dirs
                         if x not in ("CMakeFiles", "meson-private"))
        for f in sorted(files):
            p = os.path.join(top, f)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            try:
                with open(p, "rb") as fh:
                    head = fh.read(18)
            except OSError:
                continue
            # ET_EXEC (2) or ET_DYN (3); objects (ET_REL) are not linked.
            if head[:4] != b"\x7fELF" or head[16] not in (2, 3):
                continue
            st = os.stat(p)
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            out.append(p)
    return out


def qemu_for(host):
    """The qemu-user program for a triple's machine."""
    return "qemu-" + host.split("-")[0]


def cross_missing(bin_dir, host):
    """Why a recipe for host cannot run here, or None."""
    runtime = os.path.join(bin_dir, "..", "lib", "pcmap", host,
                           "libpcmap_rt.a")
    if not os.path.exists(runtime):
        return "no runtime cross-built for %s (scripts/build.sh 19 " \
            "aarch64)" % host
    if not shutil.which(qemu_for(host)):
        return "no %s (scripts/install-deps.sh installs qemu-user)" % \
            qemu_for(host)
    if not os.path.isdir("/usr/" + host):
        return "no cross libraries in /usr/%s" % host
    return None


def build_env(bin_dir, recipe, jobs, metadata=True):
    env = dict(os.environ)
    flags = recipe.flags + (" -fsanitize-metadata=all" if metadata else "")
    extra = " -fsanitize-metadata=all" if recipe.flag_in_cc and metadata \
        else ""
    target = " --target=" + recipe.host if recipe.host else ""
    if recipe.host:
        env["HOST"] = recipe.host
        env["RUN"] = "%s -L /usr/%s" % (qemu_for(recipe.host), recipe.host)
    env.update({
        "CC": os.path.join(bin_dir, "pcmap-clang") + target + extra,
        "CXX": os.path.join(bin_dir, "pcmap-clang++") + target + extra,
        "CFLAGS": flags, "CXXFLAGS": flags,
        "LDFLAGS": (recipe.ldflags + (" -fsanitize-metadata=all"
                                      if metadata else "")).strip(),
        "JOBS": str(jobs),
        # test/corpus itself, for the files a recipe adds (musl-threads.c).
        "CORPUS_DIR": HERE,
    })
    # The runtime, which pcmap-clang links into every program, reports
    # rejected metadata only; the tests' own output stays theirs.
    env.pop("PCMAP_OPTIONS", None)
    return env


def run_steps(steps, cwd, env, timeout):
    """Runs shell commands in order; returns (ok, log text)."""
    text = []
    deadline = time.time() + timeout
    for cmd in steps:
        left = max(1, int(deadline - time.time()))
        rc, out = run(["bash", "-c", "set -o pipefail; " + cmd], cwd=cwd,
                      env=env, timeout=left)
        text.append("$ %s\n%s" % (cmd, out))
        if rc:
            # The command's own log files say why; show their ends.
            for f in re.findall(r">\s*(?:\.\./)?([\w.]+\.out)", cmd):
                p = os.path.join(cwd, f)
                if f.startswith("..") or not os.path.exists(p):
                    p = os.path.join(os.path.dirname(cwd), f)
                if os.path.exists(p):
                    text.append("--- end of %s:\n%s" % (
                        f, open(p, errors="replace").read()[-3000:]))
            text.append("(status %d)" % rc)
            return False, "\n".join(text)
    return True, "\n".join(text)


def build_probe(bin_dir, work):
    """regtime.c, linked with the shared runtime; its path, or None."""
    exe = os.path.join(work, "regtime")
    rc, text = run([os.path.join(bin_dir, "pcmap-clang"), "-O2",
                    "-fsanitize-metadata=all", "-shared-libpcmap",
                    "-rdynamic", os.path.join(HERE, "regtime.c"), "-o", exe,
                    "-ldl"])
    if rc:
        log("cannot build the registration probe: " + text[-500:])
        return None
    return exe


def registration_ns(probe, files):
    """{file: ns or error text}: the time the registration calls of a
    dlopen of the file take (regtime.c), with the tables built at
    registration (lazy_tables=0): what the first query of a process that
    loaded it pays (lazily, registration itself only records the
    sections)."""
    if not probe or not files:
        return {}
    env = dict(os.environ, PCMAP_OPTIONS="lazy_tables=0")
    rc, out = run([probe] + files, env=env, timeout=300)
    result = {}
    for line in out.splitlines():
        if " error: " in line:
            path, _, err = line.partition(" error: ")
            result[path] = err
            continue
        words = line.rsplit(" ", 2)
        if len(words) == 3 and words[1].isdigit():
            result[words[0]] = int(words[1])
    for f in files:
        result.setdefault(f, "no answer (status %d)" % rc)
    return result


def invariance(recipe, bin_dir, jobs, dsc, tree, src, timeout):
    """Builds the recipe's objects again without -fsanitize-metadata and
    compares every object of both trees (check_pcmap.py invariance: the
    same bytes and relocations in every function). Returns (ok, detail)."""
    plain = os.path.join(tree, "plain")
    rc, out = run(["dpkg-source", "--no-check", "-x", dsc, plain],
                  cwd=tree, timeout=600)
    if rc:
        return False, "dpkg-source -x failed"
    ok, text = run_steps(recipe.build[:recipe.plain], plain,
                         build_env(bin_dir, recipe, jobs, metadata=False),
                         timeout)
    with open(os.path.join(tree, "plain.log"), "w") as f:
        f.write(text)
    if not ok:
        return False, "the build without -fsanitize-metadata failed"
    pairs = differ = 0
    examples = []
    for top, _, files in os.walk(plain):
        for f in sorted(files):
            if not f.endswith(".o"):
                continue
            a = os.path.join(top, f)
            b = os.path.join(src, os.path.relpath(a, plain))
            if not os.path.exists(b):
                continue
            pairs += 1
            rc, out = run([sys.executable, CHECKER, "invariance", a, b],
                          timeout=300)
            if rc:
                differ += 1
                if len(examples) < 3:
                    examples.append("%s: %s" % (
                        os.path.relpath(a, plain),
                        " ".join(out.split())[:200]))
    shutil.rmtree(plain, ignore_errors=True)
    detail = "%d objects, %d with different code or relocations" % (
        pairs, differ)
    if examples:
        detail += " (" + "; ".join(examples) + ")"
    return pairs > 0 and differ == 0, detail


def test_summary(src):
    """What the test output in src/check.out says it ran: automake's
    summary, ctest's, meson's (and the PASS lines after it), or the count
    of the TAP-style PASS/FAIL lines."""
    p = os.path.join(src, "check.out")
    if not os.path.exists(p):
        return ""
    text = open(p, errors="replace").read()
    # meson test: "Ok: N", "Expected Fail: N", "Fail: N", "Unexpected
    # Pass: N", "Skipped: N", "Timeout: N", one a line.
    meson = {k: sum(int(x) for x in re.findall(r"^%s: +(\d+) *$" % k, text,
                                                re.M))
             for k in ("Ok", "Expected Fail", "Fail", "Unexpected Pass",
                       "Skipped", "Timeout")}
    if re.search(r"^Ok: +\d+ *$", text, re.M):
        total = sum(meson.values())
        extra = len(re.findall(r"^PASS: ", text, re.M))
        return "meson: %d of %d passed, %d failed, %d skipped, %d timed " \
            "out" % (meson["Ok"] + meson["Expected Fail"], total,
                     meson["Fail"] + meson["Unexpected Pass"],
                     meson["Skipped"], meson["Timeout"]) + \
            ("; %d PASS lines after it" % extra if extra else "")
    m = re.findall(r"(\d+)% tests passed, (\d+) tests? failed out of (\d+)",
                   text)
    if m:
        total = sum(int(x[2]) for x in m)
        failed = sum(int(x[1]) for x in m)
        return "ctest: %d of %d passed" % (total - failed, total)
    sums = {k: sum(int(x) for x in re.findall(r"^# %s: +(\d+)" % k, text,
                                               re.M))
            for k in ("TOTAL", "PASS", "FAIL", "ERROR", "SKIP")}
    if sums["TOTAL"]:
        return "automake: %d of %d passed, %d failed, %d errors, %d skipped" \
            % (sums["PASS"], sums["TOTAL"], sums["FAIL"], sums["ERROR"],
               sums["SKIP"])
    dirs = len(re.findall(r"^----\[ Testing ", text, re.M))
    if dirs:  # ck: make stops at the first failing directory
        return "%d test directories run" % dirs
    passed = len(re.findall(r"^(?:PASS|ok)\b", text, re.M | re.I))
    failed = len(re.findall(r"^(?:FAIL|not ok)\b", text, re.M | re.I))
    if passed or failed:
        return "%d PASS lines, %d FAIL lines" % (passed, failed)
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1][:160] if lines else ""


def check_files(files, objdump, out_json):
    rc, out = run([sys.executable, CHECKER, "corpus", "--objdump", objdump,
                   "--json", out_json] + files, timeout=3600)
    try:
        return json.load(open(out_json)), out
    except (OSError, ValueError):
        return None, out


def decoder_check(build, files):
    """The runtime's memory-access decoder against LLVM's disassembler
    (test/tools/access-check) on every instruction of the package's ELF
    files: (no disagreement, a one-line account)."""
    tool = os.path.join(build, "test", "tools", "access-check")
    if not files:
        return False, "no ELF files"
    if not os.path.exists(tool):
        return False, "no %s (a build with tests)" % tool
    out = subprocess.run([tool, "--skip-missing"] + files,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True).stdout
    counts = [(int(i), int(d)) for i, d in re.findall(
        r": (\d+) instructions, .*disagreements: (\d+)", out)]
    instructions = sum(i for i, _ in counts)
    disagreements = sum(d for _, d in counts)
    ok = len(counts) == len(files) and disagreements == 0
    detail = "%d disagreements with MC in %d instructions of %d files" % (
        disagreements, instructions, len(counts))
    if len(counts) != len(files):
        detail += "; %d files not checked: %s" % (
            len(files) - len(counts), out[-300:].strip())
    return ok, detail


def totals(stats):
    keys = ["functions", "atomics", "atomics_from_asm", "visible",
            "visible_recorded", "wrong_no", "precise", "metadata_bytes",
            "code_bytes"]
    t = {k: 0 for k in keys}
    t["errors"] = 0
    for st in stats:
        if st.get("errors"):
            t["errors"] += 1
            continue
        for k in keys:
            t[k] += st[k]
    return t


def pct(a, b):
    return "%.1f%%" % (100.0 * a / b) if b else "-"


def read_expected(path):
    """{check name: reason} from the expected-failures file."""
    out = {}
    if not os.path.exists(path):
        return out
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, reason = line.partition(" ")
            out[name] = reason.strip()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build-19"),
                    help="the pcmap build directory (default: build-19)")
    ap.add_argument("--work", default=None,
                    help="where sources are cached and built "
                    "(default: BUILD/corpus)")
    ap.add_argument("--only", default="",
                    help="comma-separated recipe names, or 'ci' for "
                    "those scripts/test.sh runs (default: all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=1200,
                    help="seconds for a package's build, and again for "
                    "its tests")
    ap.add_argument("--expected-failures",
                    default=os.path.join(HERE, "expected-failures"))
    ap.add_argument("--table", action="store_true",
                    help="only print the table of the last run's "
                    "results.json")
    args = ap.parse_args(argv)
    if args.table:
        work = os.path.abspath(args.work or os.path.join(args.build,
                                                         "corpus"))
        summary = json.load(open(os.path.join(work, "results.json")))
        print("\n".join(format_table(summary["packages"])))
        return 0

    build = os.path.abspath(args.build)
    work = os.path.abspath(args.work or os.path.join(build, "corpus"))
    bin_dir = os.path.join(build, "bin")
    llvm_version = None
    cache_file = os.path.join(build, "CMakeCache.txt")
    if os.path.exists(cache_file):
        m = re.search(r"^LLVM_DIR:\w*=(.*)$", open(cache_file).read(), re.M)
        if m:
            llvm_bin = os.path.normpath(os.path.join(m.group(1), "..", "..",
                                                     "..", "bin"))
            v = re.search(r"llvm-(\d+)", m.group(1))
            llvm_version = v.group(1) if v else None
    if not llvm_version or not os.path.exists(
            os.path.join(bin_dir, "pcmap-clang")):
        log("error: %s is not a pcmap build (scripts/build.sh 19)" % build)
        return 2
    objdump = os.path.join(llvm_bin, "llvm-objdump")
    # lld for -fuse-ld=lld, from the same LLVM.
    os.environ["PATH"] = llvm_bin + os.pathsep + os.environ["PATH"]

    recipes = RECIPES
    if args.only:
        names = []
        for name in args.only.split(","):
            names += CI_RECIPES if name == "ci" else [name]
        unknown = set(names) - {r.name for r in RECIPES}
        if unknown:
            log("error: unknown recipe(s) %s" % ", ".join(sorted(unknown)))
            return 2
        recipes = [r for r in RECIPES if r.name in names]
    expected = read_expected(args.expected_failures)

    t0 = time.time()
    setup_error = setup_archive(llvm_version)
    if setup_error:
        log("source archive not available: " + setup_error)
    setup_s = time.time() - t0

    cache = os.path.join(work, "downloads")
    os.makedirs(work, exist_ok=True)
    probe = build_probe(bin_dir, work)
    results = []
    counts = {"passed": 0, "failed": 0, "skipped": 0, "xfail": 0,
              "xpass": 0}
    lines = []

    def verdict(pkg, check, ok, detail, skip=False):
        name = "%s:%s" % (pkg, check)
        if skip:
            word = "SKIPPED"
            counts["skipped"] += 1
        elif name in expected:
            word = "XPASS" if ok else "XFAIL"
            counts["xpass" if ok else "xfail"] += 1
            counts["passed"] += 1
            detail += " (expected to fail: %s)" % expected[name]
            if ok:
                detail += "; remove it from test/corpus/expected-failures"
        else:
            word = "PASS" if ok else "FAIL"
            counts["passed" if ok else "failed"] += 1
        line = "%-7s %s: %s" % (word, name, detail)
        lines.append(line)
        log(line)
        return word

    for r in recipes:
        res = {"name": r.name, "source": r.source, "flags": r.flags,
               "ldflags": r.ldflags, "checks": {}, "seconds": {},
               "files": []}
        results.append(res)
        checks = ["build", "tests", "coverage", "wrong-no", "precision"] + \
            (["recall"] if r.recall else []) + \
            (["invariance"] if r.plain else [])
        start = time.time()
        why = setup_error or (cross_missing(bin_dir, r.host) if r.host
                              else None)
        dsc, why = (None, why) if why else fetch(r.source, cache)
        res["seconds"]["fetch"] = round(time.time() - start, 1)
        if not dsc:
            res["skipped"] = why
            if cross:
                log("%s: SKIPPED, cannot build for %s here: %s" % (
                    r.name, r.host, why))
            else:
                log("%s: SKIPPED, the archive cannot serve source package "
                    "%s: %s" % (r.name, r.source, why))
            for c in checks:
                res["checks"][c] = verdict(r.name, c, False, why, skip=True)
            continue
        res["version"] = os.path.basename(dsc)[len(r.source) + 1:-4]
        tree = os.path.join(work, r.name)
        shutil.rmtree(tree, ignore_errors=True)
        os.makedirs(tree)
        src = os.path.join(tree, "src")
        rc, out = run(["dpkg-source", "--no-check", "-x", dsc, src],
                      cwd=tree, timeout=600)
        env = build_env(bin_dir, r, args.jobs)
        start = time.time()
        if rc:
            ok, text = False, "dpkg-source -x failed:\n" + out
        else:
            ok, text = run_steps(r.build, src, env, args.timeout)
        res["seconds"]["build"] = round(time.time() - start, 1)
        with open(os.path.join(tree, "build.log"), "w") as f:
            f.write(text)
        res["checks"]["build"] = verdict(
            r.name, "build", ok, "%s %s, %s (%.0f s)" % (
                r.source, res["version"], r.flags, res["seconds"]["build"]))
        if not ok:
            print(text[-4000:])
        start = time.time()
        if ok:
            tok, ttext = run_steps(r.test, src, env, args.timeout)
            with open(os.path.join(tree, "test.log"), "w") as f:
                f.write(ttext)
            tail = [test_summary(src)]
            if not tok:
                print(ttext[-3000:])
        else:
            tok, tail = False, ["not run: the build failed"]
        res["seconds"]["tests"] = round(time.time() - start, 1)
        res["tests_passed"] = tok
        res["tests_summary"] = tail[0]
        res["checks"]["tests"] = verdict(
            r.name, "tests", tok, "%s (%.0f s)" % (
                "; ".join(tail)[:200], res["seconds"]["tests"]))

        start = time.time()
        files = elf_files(src)
        stats, out = check_files(files, objdump,
                                 os.path.join(tree, "check.json")) \
            if files else ([], "")
        res["seconds"]["check"] = round(time.time() - start, 1)
        with open(os.path.join(tree, "check.log"), "w") as f:
            f.write(out)
        if stats is None:
            stats = []
            res["check_error"] = out[-2000:]
            print(out[-2000:])
        start = time.time()
        shared = [st["file"] for st in stats if not st.get("errors") and
                  st["functions"] and ".so" in os.path.basename(st["file"])]
        # Another machine's shared objects cannot be loaded here.
        reg = registration_ns(probe, shared) if not r.host else {}
        for st in stats:
            if st["file"] in reg:
                st["registration_ns"] = reg[st["file"]]
        res["seconds"]["check"] += round(time.time() - start, 1)
        for st in stats:
            st["file"] = os.path.relpath(st["file"], src)
        res["files"] = stats
        t = totals(stats)
        res["totals"] = t
        covered = [s for s in stats if not s.get("errors") and
                   s["functions"]]
        bad = [s["file"] for s in stats if s.get("errors")]
        detail = "%d ELF files (%d with pcmap tables)" % (len(stats),
                                                          len(covered))
        if bad:
            detail += "; undecodable: " + ", ".join(bad[:5])
        fine = bool(covered) and not bad and stats is not None
        bare = [s["file"] for s in stats
                 if not s.get("errors") and not s["functions"]]
        res["checks"]["coverage"] = verdict(
            r.name, "coverage", bool(stats) and not bare and not bad,
            "%d of %d ELF files have pcmap tables" % (len(covered),
                                                      len(stats)) +
            ("; none in " + ", ".join(bare[:4]) +
             (" and %d more" % (len(bare) - 4) if len(bare) > 4 else "")
             if bare else ""))
        worst = sorted((s for s in covered if s["wrong_no"]),
                       key=lambda s: -s["wrong_no"])
        res["checks"]["wrong-no"] = verdict(
            r.name, "wrong-no", fine and t["wrong_no"] == 0,
            "%d wrong NO in %s" % (t["wrong_no"], detail) +
            ("; most in " + ", ".join("%s (%d)" % (s["file"], s["wrong_no"])
                                      for s in worst[:3]) if worst else ""))
        res["checks"]["precision"] = verdict(
            r.name, "precision", fine and t["precise"] == t["atomics"],
            "%d of %d entries start an instruction of a complete function "
            "(%s)" % (t["precise"], t["atomics"],
                      pct(t["precise"], t["atomics"])))
        if r.recall:
            res["checks"]["recall"] = verdict(
                r.name, "recall",
                fine and t["visible_recorded"] == t["visible"],
                "%d of %d locked instructions recorded (%s)" % (
                    t["visible_recorded"], t["visible"],
                    pct(t["visible_recorded"], t["visible"])))
        start = time.time()
        dok, ddetail = decoder_check(build, files)
        res["seconds"]["check"] += round(time.time() - start, 1)
        res["checks"]["decoder"] = verdict(r.name, "decoder", dok, ddetail)
        if r.plain:
            start = time.time()
            if ok:
                iok, idetail = invariance(r, bin_dir, args.jobs, dsc, tree,
                                          src, args.timeout)
            else:
                iok, idetail = False, "not run: the build failed"
            res["seconds"]["invariance"] = round(time.time() - start, 1)
            res["checks"]["invariance"] = verdict(
                r.name, "invariance", iok, "%s (%.0f s)" % (
                    idetail, res["seconds"]["invariance"]))
        for c in ("build", "tests", "check"):
            res["seconds"].setdefault(c, 0)

    total_s = time.time() - t0
    # A run of some recipes replaces theirs in the last run's results.
    done = {r["name"] for r in results}
    try:
        last = json.load(open(os.path.join(work, "results.json")))
        old = {r["name"]: r for r in last.get("packages", [])
               if r["name"] not in done}
    except (OSError, ValueError):
        old = {}
    results = [old[r.name] if r.name in old else
               next(x for x in results if x["name"] == r.name)
               for r in RECIPES if r.name in old or r.name in done]
    summary = {"setup_seconds": round(setup_s, 1),
               "total_seconds": round(total_s, 1), "counts": counts,
               "llvm": llvm_version, "packages": results}
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    table = format_table(results)
    table.append("")
    table.extend(lines)
    table.append("")
    table.append("setup %.0f s; total %.0f s" % (setup_s, total_s))
    with open(os.path.join(work, "results.txt"), "w") as f:
        f.write("\n".join(table) + "\n")
    print("\n".join(table[:table.index("")]))
    log("results in %s and %s" % (os.path.join(work, "results.txt"),
                                  os.path.join(work, "results.json")))
    log("setup %.0f s, total %.0f s" % (setup_s, total_s))
    if counts["xfail"] or counts["xpass"]:
        log("%d expected failure(s), %d unexpected pass(es), counted as "
            "passed" % (counts["xfail"], counts["xpass"]))
    print("corpus: %d passed, %d failed, %d skipped"
          % (counts["passed"], counts["failed"], counts["skipped"]))
    return 1 if counts["failed"] else 0


def format_table(results):
    """The per-package and per-file table (Markdown)."""
    head = ("| package | ELF file | functions | atomics recorded (asm) | "
            "visible | recall | wrong NO | precision | metadata / code | "
            "registration µs | tests | seconds fetch/build/test/check |")
    out = [head, "| " + " | ".join(["---"] * 2 + ["---:"] * 8 +
                                   ["---", "---:"]) + " |"]

    def row(pkg, name, t, tests, secs):
        reg = t.get("registration_ns", "")
        if isinstance(reg, int):
            reg = "%.1f" % (reg / 1000.0)
        elif reg:
            reg = "(%s)" % reg.split(":")[-1].strip()[:60]
        return ("| %s | %s | %d | %d (%d) | %d | %s | %d | %s | %s | %s | "
                "%s | %s |" % (pkg, name, t["functions"], t["atomics"],
                               t["atomics_from_asm"], t["visible"],
                               pct(t["visible_recorded"], t["visible"]),
                               t["wrong_no"],
                               pct(t["precise"], t["atomics"]),
                               pct(t["metadata_bytes"], t["code_bytes"]),
                               reg, tests, secs))
    for r in results:
        if r.get("skipped"):
            out.append("| %s | skipped: %s | | | | | | | | | | |"
                       % (r["name"], r["skipped"][:200].replace("|", "/")))
            continue
        s = r["seconds"]
        secs = "%.0f/%.0f/%.0f/%.0f" % (s["fetch"], s["build"], s["tests"],
                                        s["check"])
        tests = "pass" if r.get("tests_passed") else "FAIL"
        files = [f for f in r["files"] if not f.get("errors")]
        out.append(row(r["name"], "all %d files" % len(files),
                       r["totals"], tests, secs))
        # The shared objects, and the three executables with the most
        # wrong NOs or imprecise entries, by name.
        shared = [f for f in files if ".so" in os.path.basename(f["file"])]
        worst = sorted((f for f in files if f not in shared and
                        (f["wrong_no"] or f["precise"] != f["atomics"])),
                       key=lambda f: (-f["wrong_no"], f["file"]))
        for f in shared + worst[:3]:
            out.append(row("", f["file"], f, "", ""))
        if len(worst) > 3:
            out.append("| | and %d more executables with wrong NOs | "
                       "| | | | | | | | | |" % (len(worst) - 3))
    return out


if __name__ == "__main__":
    sys.exit(main())
