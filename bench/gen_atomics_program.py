#!/usr/bin/env python3
"""Writes a large C++ program for the instrumentation benchmarks: N functions
mixing plain code with std::atomic operations of several kinds, sizes and
orders, so that the plugin and the backend see realistic work."""
import argparse

ORDERS = ["relaxed", "acquire", "release", "acq_rel", "seq_cst"]
TYPES = ["std::uint8_t", "std::uint16_t", "std::uint32_t", "std::uint64_t"]


def function(i):
    t = TYPES[i % len(TYPES)]
    o = ORDERS[i % len(ORDERS)]
    load_o = "acquire" if o in ("release", "acq_rel") else o
    store_o = "release" if o in ("acquire", "acq_rel") else o
    body = [f"  auto &a = cells<{t}>[{i % 64}];"]
    body.append(f"  {t} v = a.load(std::memory_order_{load_o});")
    body.append("  long acc = 0;")
    body.append(f"  for (int k = 0; k < n; ++k) acc += table[(k * {i % 7 + 3}) & 255] ^ k;")
    kind = i % 6
    if kind == 0:
        body.append(f"  a.fetch_add(1, std::memory_order_{o});")
    elif kind == 1:
        body.append(f"  a.store(v + 1, std::memory_order_{store_o});")
    elif kind == 2:
        body.append(f"  {t} e = v;")
        body.append(f"  while (!a.compare_exchange_weak(e, e + 1, std::memory_order_{o}, std::memory_order_relaxed)) {{}}")
    elif kind == 3:
        body.append(f"  v = a.exchange(v ^ 1, std::memory_order_{o});")
    elif kind == 4:
        body.append(f"  a.fetch_or(2, std::memory_order_{o});")
        body.append("  std::atomic_thread_fence(std::memory_order_seq_cst);")
    else:
        body.append("  acc += helper(acc);")
    body.append("  return acc + v;")
    return f"long fn{i}(int n) {{\n" + "\n".join(body) + "\n}\n"


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--functions", type=int, default=3000)
    p.add_argument("output")
    a = p.parse_args()
    with open(a.output, "w") as f:
        f.write("#include <atomic>\n#include <cstdint>\n\n")
        f.write("template <class T> std::atomic<T> cells[64];\n")
        f.write("int table[256];\n")
        f.write("static long helper(long x) { return x * 3 + 1; }\n\n")
        for i in range(a.functions):
            f.write(function(i))
        f.write("\nint main(int argc, char **) {\n  long s = 0;\n")
        for i in range(0, a.functions, max(1, a.functions // 64)):
            f.write(f"  s += fn{i}(argc);\n")
        f.write("  return s == 42;\n}\n")


if __name__ == "__main__":
    main()
