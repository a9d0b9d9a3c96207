#!/usr/bin/env python3
"""Writes a C program with many small functions, a quarter of them with
atomics, split into translation units, for the pcmap-report benchmark.

  gen_program.py OUTDIR [FUNCTIONS] [UNITS]     (default 100000 in 20 units)

OUTDIR gets unit0.c .. unitN.c and main.c; run_report_bench.sh compiles
them with pcmap-clang.
"""

import os
import sys

BODIES = [
    # Plain arithmetic of a few sizes.
    "  return x * {k} + {k2};",
    "  long s = 0;\n  for (long i = 0; i < x; ++i)\n    s += i ^ {k};\n"
    "  return s;",
    "  if (x > {k})\n    return x - {k2};\n  return x * x + {k};",
    "  long a = x, b = {k};\n  while (b) {{ long t = a % b; a = b; b = t; }}\n"
    "  return a + {k2};",
    "  return (x << {s}) | (x >> (64 - {s}));",
    # Atomics: load, rmw, cmpxchg loop, store + fence.
    "  return __atomic_load_n(&shared[{m}], __ATOMIC_ACQUIRE) + x;",
    "  return __atomic_fetch_add(&shared[{m}], x, __ATOMIC_SEQ_CST);",
    "  long old = __atomic_load_n(&shared[{m}], __ATOMIC_RELAXED);\n"
    "  while (!__atomic_compare_exchange_n(&shared[{m}], &old, old + x, 1,\n"
    "                                     __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))\n"
    "    ;\n  __atomic_store_n(&shared[{m2}], old, __ATOMIC_RELEASE);\n"
    "  __atomic_thread_fence(__ATOMIC_SEQ_CST);\n  return old;",
]


def main():
    out = sys.argv[1]
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
    units = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    os.makedirs(out, exist_ok=True)
    per_unit = (total + units - 1) // units
    for u in range(units):
        first, last = u * per_unit, min(total, (u + 1) * per_unit)
        with open(os.path.join(out, "unit%d.c" % u), "w") as f:
            f.write("extern long shared[64];\n")
            for i in range(first, last):
                body = BODIES[i % len(BODIES)].format(
                    k=i % 97 + 1, k2=i % 13, s=i % 63 + 1, m=i % 64,
                    m2=(i * 7) % 64)
                f.write("__attribute__((noinline)) long fn_%d(long x) {\n"
                        "%s\n}\n" % (i, body))
            # One caller per unit keeps every function alive.
            f.write("long unit_%d(long x) {\n  long s = 0;\n" % u)
            for i in range(first, last):
                f.write("  s += fn_%d(x);\n" % i)
            f.write("  return s;\n}\n")
    with open(os.path.join(out, "main.c"), "w") as f:
        f.write("long shared[64];\n")
        for u in range(units):
            f.write("long unit_%d(long);\n" % u)
        f.write("int main(int argc, char **argv) {\n  (void)argv;\n"
                "  long s = 0;\n  if (argc > 99) {\n")
        for u in range(units):
            f.write("    s += unit_%d(argc);\n" % u)
        f.write("  }\n  return (int)(s & 1);\n}\n")
    print("%s: %d functions in %d units" % (out, total, units))


if __name__ == "__main__":
    sys.exit(main())
