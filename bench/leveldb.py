"""LevelDB's db_bench built with the drivers, for the benchmarks that run a
real program (leveldb_vs_perf.py, leveldb_wait.py): Debian's source package
(`apt-get source leveldb`, which needs a deb-src entry), at -O2 -g without
frame pointers, as Debian builds it."""

import os
import subprocess
import tempfile


def build_db_bench(build):
    """(work directory, db_bench's path); the caller removes the work
    directory."""
    work = tempfile.mkdtemp(prefix="pcmap-leveldb-")
    subprocess.run(["apt-get", "source", "-qq", "leveldb"], cwd=work,
                   check=True, stdout=subprocess.DEVNULL)
    src = next(os.path.join(work, d) for d in os.listdir(work)
               if d.startswith("leveldb-") and
               os.path.isdir(os.path.join(work, d)))
    out = os.path.join(work, "build")
    bin_dir = os.path.join(build, "bin")
    subprocess.run(["cmake", "-S", src, "-B", out, "-G", "Ninja",
                    "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g",
                    "-DCMAKE_C_COMPILER=" + os.path.join(bin_dir,
                                                         "pcmap-clang"),
                    "-DCMAKE_CXX_COMPILER=" + os.path.join(bin_dir,
                                                           "pcmap-clang++"),
                    "-DCMAKE_CXX_FLAGS=-fsanitize-metadata=all",
                    "-DLEVELDB_BUILD_TESTS=OFF",
                    "-DLEVELDB_BUILD_BENCHMARKS=ON"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", out, "db_bench"], check=True,
                   stdout=subprocess.DEVNULL)
    return work, os.path.join(out, "db_bench")
