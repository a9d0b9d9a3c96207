#!/usr/bin/env python3
"""Writes the C++ sources of a shared object with a given layout of atomics
for bench/pcmap_layout_bench (issue 20): functions of external linkage, none
inlined into another, each with a fixed number of std::atomic operations.

Layouts:
  dense   2,000 functions of 50 atomics each (dense lock-free code: a
          256-byte stretch holds more than 16 atomics)
  small   100,000 functions of 2 atomics each (many small functions: a
          stretch holds several whole functions)
  mixed   20,000 functions: atomics per function 0 to 64 (most have few),
          with plain code of 0 to 40 loop iterations' worth between them

The sources are split into files of at most --per-file functions, so that
they compile in parallel. Fixed seed: the same layout every time."""
import argparse
import os
import random

ORDERS = ["relaxed", "acquire", "release", "acq_rel", "seq_cst"]
CELLS = 256


def atomic_op(rng, k):
    """One atomic operation on a cell, its value folded into x."""
    c = rng.randrange(CELLS)
    kind = rng.randrange(6)
    o = ORDERS[rng.randrange(len(ORDERS))]
    load_o = {"release": "acquire", "acq_rel": "acquire"}.get(o, o)
    store_o = {"acquire": "release", "acq_rel": "release"}.get(o, o)
    if kind == 0:
        return f"  x += cells[{c}].load(std::memory_order_{load_o});"
    if kind == 1:
        return f"  cells[{c}].store(x + {k}, std::memory_order_{store_o});"
    if kind == 2:
        return f"  x ^= cells[{c}].fetch_add(x, std::memory_order_{o});"
    if kind == 3:
        return f"  x += cells[{c}].exchange(x, std::memory_order_{o});"
    if kind == 4:
        return (f"  {{ long e = x; cells[{c}].compare_exchange_strong(e, x + 1, "
                f"std::memory_order_{o}, std::memory_order_relaxed); x += e; }}")
    return f"  x |= cells[{c}].fetch_or({k + 1}, std::memory_order_{o});"


def plain_code(rng, i, weight):
    """Plain code of roughly weight units (none atomic)."""
    if weight == 0:
        return []
    return [f"  for (long k = 0; k < n; ++k) x += table[(k * {i % 7 + 3} + x) & 255] ^ k;"
            for _ in range(weight)]


def function(rng, i, atomics, weight):
    body = ["  long x = n;"]
    body += plain_code(rng, i, weight)
    for k in range(atomics):
        body.append(atomic_op(rng, k))
    body.append(f"  return x + {i};")
    return (f"extern \"C\" __attribute__((noinline)) long layout_fn{i}(long n) {{\n"
            + "\n".join(body) + "\n}\n")


def plan(layout, rng):
    """(atomics, plain weight) per function."""
    if layout == "dense":
        return [(50, 0)] * 2000
    if layout == "small":
        return [(2, 0)] * 100000
    # mixed: a heavy tail of atomics, plain code around them
    counts = [0, 1, 1, 2, 2, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64]
    weights = [8, 14, 14, 12, 12, 12, 8, 6, 4, 3, 2, 2, 1, 1, 1]
    out = []
    for _ in range(20000):
        a = rng.choices(counts, weights)[0]
        w = rng.choice([0, 0, 0, 1, 1, 2, 3, 5, 8, 13, 21, 40])
        out.append((a, w))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("layout", choices=["dense", "small", "mixed"])
    p.add_argument("outdir")
    p.add_argument("--per-file", type=int, default=5000)
    a = p.parse_args()
    rng = random.Random(20)
    os.makedirs(a.outdir, exist_ok=True)
    functions = plan(a.layout, rng)
    head = ("#include <atomic>\n\n"
            f"extern std::atomic<long> cells[{CELLS}];\n"
            "extern int table[256];\n\n")
    with open(os.path.join(a.outdir, "data.cpp"), "w") as f:
        f.write("#include <atomic>\n\n"
                f"std::atomic<long> cells[{CELLS}];\nint table[256];\n")
    for start in range(0, len(functions), a.per_file):
        path = os.path.join(a.outdir, f"part{start // a.per_file:03d}.cpp")
        with open(path, "w") as f:
            f.write(head)
            for i in range(start, min(start + a.per_file, len(functions))):
                f.write(function(rng, i, *functions[i]))


if __name__ == "__main__":
    main()
