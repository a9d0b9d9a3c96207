"""Checks the text report of test/rt/tracer-duty-windows.c: every duty
window but those of the threads that ended with one open (at most one a
thread) has its sample, and the samples stand for the CPU time."""
import re
import sys

text = open(sys.argv[1]).read()
header = re.search(r"atomic tracer: (\d+) samples at \d+ Hz in (\d+) threads?", text)
windows = re.search(r"duty windows \(threads that switch often\): (\d+) "
                    r"opened at (\d+) timer signals, (\d+) sampled", text)
resolution = re.search(r"one per ([\d.]+) ms of CPU time", text)
signals = re.search(r"resolution: (\d+) sampling signals", text)
if not (header and windows and resolution and signals):
    sys.exit("a line of the report is missing:\n" + text)
samples, threads = int(header.group(1)), int(header.group(2))
opened, draws, sampled = (int(windows.group(1)), int(windows.group(2)),
                          int(windows.group(3)))
cpu_ms = float(resolution.group(1)) * int(signals.group(1))
print("windows %d, drawn at %d signals, sampled %d, threads %d; "
      "samples %d for %.0f ms of CPU"
      % (opened, draws, sampled, threads, samples, cpu_ms))
if opened < 20:
    sys.exit("too few windows to check: %d" % opened)
if sampled + threads < opened:
    sys.exit("windows without their sample: %d of %d" % (opened - sampled, opened))
# Between windows the timer is armed to the next one's interval
# (skipToWindow): a window takes the signal that opens it, those of the
# intervals it runs (about one) and the one after, where the next is drawn;
# at 64 intervals a window, drawing at every interval's signal took 26 per
# window here.
if draws > 6 * opened + 10:
    sys.exit("%d timer signals drew %d windows" % (draws, opened))
# The samples stand for the CPU time in expectation: with these windows'
# count, a total off by a third is over four standard errors away.
if not 0.67 * cpu_ms <= samples <= 1.5 * cpu_ms:
    sys.exit("samples %d for %.0f ms of CPU time" % (samples, cpu_ms))
