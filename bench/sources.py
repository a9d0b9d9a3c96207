#!/usr/bin/env python3
"""Fetches and prepares the third-party sources some benchmarks measure,
from Debian's source packages, in a directory outside the repository:

  sqlite DIR     SQLite's amalgamation (DIR/sqlite3.c, DIR/shell.c), made
                 from the source package sqlite3 (needs tclsh); measured by
                 bench/startup.py --sqlite DIR
  postgres DIR   PostgreSQL 15, configured in DIR with the clang the build
                 uses (--build), its backend's generated headers made; the
                 sources next to it, in DIR-source; measured by
                 bench/driver_cost.py --postgres DIR

`apt-get source` needs a deb-src entry (test/corpus/corpus.py adds one
mirroring the machine's deb entries). A directory already prepared is left
as it is. bench/performance.py runs this for the benchmarks that need it.

usage: bench/sources.py [--build BUILD] (sqlite | postgres) DIR"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys


def log(msg):
    print("sources.py: " + msg, file=sys.stderr, flush=True)


def run(cmd, cwd, quiet=True):
    log("+ " + " ".join(cmd))
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE if quiet else None,
                       stderr=subprocess.STDOUT if quiet else None, text=True)
    if r.returncode != 0:
        if quiet:
            sys.stderr.write(r.stdout[-4000:])
        sys.exit("sources.py: failed (exit status %d): %s" %
                 (r.returncode, " ".join(cmd)))


def apt_source(package, cwd, fallbacks=()):
    """apt-get source PACKAGE into cwd, unpacked; then each fallback
    (PACKAGE=VERSION) in turn if the archive cannot serve the first (the
    security archive sometimes answers 404 for a version it lists)."""
    for spec in (package,) + tuple(fallbacks):
        r = subprocess.run(["apt-get", "source", "-qq", spec], cwd=cwd,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if r.returncode == 0:
            return
        log("apt-get source %s failed:\n%s" % (spec, r.stdout[-2000:]))
    sys.exit("sources.py: apt-get source %s failed (a deb-src entry is "
             "needed: test/corpus/corpus.py adds one)" % package)


def plain_clang(build):
    """PCMAP_CLANG in BUILD/CMakeCache.txt: the clang the drivers run."""
    try:
        for line in open(os.path.join(build, "CMakeCache.txt")):
            if line.startswith("PCMAP_CLANG:"):
                return line.split("=", 1)[1].strip()
    except OSError:
        pass
    sys.exit("sources.py: no PCMAP_CLANG in %s/CMakeCache.txt (--build)" %
             build)


def sqlite(out):
    if all(os.path.exists(os.path.join(out, f))
           for f in ("sqlite3.c", "shell.c")):
        log("%s: already prepared" % out)
        return
    work = out + "-source"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    run(["apt-get", "source", "-qq", "--download-only", "sqlite3"], work)
    tarball = sorted(glob.glob(os.path.join(work, "sqlite3_*.orig.tar.*")))
    if not tarball:
        sys.exit("sources.py: no sqlite3_*.orig.tar.* in %s" % work)
    run(["tar", "xf", os.path.basename(tarball[0])], work)
    src = next(d for d in sorted(glob.glob(os.path.join(work, "sqlite*")))
               if os.path.isdir(d))
    build = os.path.join(work, "amalgamation")
    os.makedirs(build)
    run([os.path.join(src, "configure")], build)
    run(["make", "sqlite3.c", "shell.c"], build)
    os.makedirs(out, exist_ok=True)
    for f in ("sqlite3.c", "sqlite3.h", "shell.c"):
        shutil.copy(os.path.join(build, f), os.path.join(out, f))
    shutil.rmtree(work, ignore_errors=True)
    log("%s: SQLite's amalgamation" % out)


def postgres(out, build):
    if os.path.exists(os.path.join(out, "src", "backend", "Makefile")) and \
            os.path.exists(os.path.join(out, ".pcmap-prepared")):
        log("%s: already prepared" % out)
        return
    clang = plain_clang(build)
    work = out + "-source"
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(work)
    os.makedirs(out)
    apt_source("postgresql-15", work, ("postgresql-15=15.18-0+deb12u1",))
    src = next(d for d in sorted(glob.glob(os.path.join(work,
                                                        "postgresql-15-*")))
               if os.path.isdir(d))
    run([os.path.join(src, "configure"), "CC=" + clang, "--without-icu",
         "--without-readline", "--without-zlib"], out)
    run(["make", "-C", "src/backend", "generated-headers"], out)
    version = re.sub(r"^postgresql-15-", "", os.path.basename(src))
    with open(os.path.join(out, ".pcmap-prepared"), "w") as f:
        f.write("PostgreSQL %s\n" % version)
    log("%s: PostgreSQL %s configured (sources in %s)" % (out, version, src))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default="build-19",
                   help="the pcmap build whose clang configures PostgreSQL")
    p.add_argument("what", choices=("sqlite", "postgres"))
    p.add_argument("dir")
    a = p.parse_args()
    out = os.path.abspath(a.dir)
    if a.what == "sqlite":
        sqlite(out)
    else:
        postgres(out, os.path.abspath(a.build))


if __name__ == "__main__":
    main()
