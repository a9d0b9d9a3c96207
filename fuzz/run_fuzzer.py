#!/usr/bin/env python3
"""Runs one libFuzzer harness for a bounded time on a copy of its seed corpus.

Prints libFuzzer's "Done" line and a one-line summary (executions, exec/s,
coverage), which it also writes to --summary. When the harness finds a
crash, a leak or a failed property, prints the end of its output, the input
that triggered it (hex) and the command that reproduces it, and exits 1.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--harness", required=True)
    p.add_argument("--corpus", required=True, help="seed corpus (not modified)")
    p.add_argument("--seconds", type=int, default=30)
    p.add_argument("--max-len", type=int, default=4096)
    p.add_argument("--work", required=True, help="scratch directory")
    p.add_argument("--summary", help="file for the summary line")
    args = p.parse_args()

    name = os.path.basename(args.harness)
    shutil.rmtree(args.work, ignore_errors=True)
    corpus = os.path.join(args.work, "corpus")
    shutil.copytree(args.corpus, corpus)
    artifacts = os.path.join(args.work, "artifacts") + os.sep
    os.makedirs(artifacts)
    cmd = [args.harness, "-max_total_time=%d" % args.seconds,
           "-max_len=%d" % args.max_len, "-print_final_stats=1",
           "-rss_limit_mb=2048", "-timeout=10",
           "-artifact_prefix=" + artifacts, corpus]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          errors="replace")
    log = proc.stdout
    with open(os.path.join(args.work, "fuzz.log"), "w") as f:
        f.write(log)

    done = re.search(r"^Done (\d+) runs in (\d+) second", log, re.M)
    if proc.returncode != 0 or not done:
        # The report of what went wrong (a sanitizer's, libFuzzer's or a
        # failed property's), else the end of the log.
        lines = log.splitlines()
        first = next((i for i, l in enumerate(lines) if re.search(
            r"==\d+==ERROR|FUZZ_CHECK failed|runtime error:|ERROR: libFuzzer",
            l)), max(len(lines) - 60, 0))
        print("\n".join(lines[first:first + 80]))
        print("%s: FAILED (exit status %d)" % (name, proc.returncode))
        for a in sorted(os.listdir(artifacts)):
            path = os.path.join(artifacts, a)
            with open(path, "rb") as f:
                data = f.read()
            print("reproducer %s (%d bytes): %s" % (path, len(data),
                                                    data[:512].hex()))
            print("reproduce with: %s %s" % (args.harness, path))
        return 1

    def stat(key):
        m = re.search(r"^stat::%s:\s*(\d+)" % key, log, re.M)
        return int(m.group(1)) if m else 0

    execs = stat("number_of_executed_units") or int(done.group(1))
    per_sec = stat("average_exec_per_sec")
    cov = re.findall(r"\bcov: (\d+) ft: (\d+) corp: (\d+)", log)
    cov, ft, corp = cov[-1] if cov else ("?", "?", "?")
    print(done.group(0))
    summary = ("%s: %d executions in %d s, %d exec/s, cov %s, ft %s, corpus %s"
               % (name, execs, int(done.group(2)), per_sec, cov, ft, corp))
    print(summary)
    if args.summary:
        os.makedirs(os.path.dirname(os.path.abspath(args.summary)),
                    exist_ok=True)
        with open(args.summary, "w") as f:
            f.write(summary + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
