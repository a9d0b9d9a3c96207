"""Checks the text report of test/rt/tracer-process-event.c: threads that
switch every few microseconds were sampled at the requested rate (about one
signal per period the event counts, where duty windows took one per 20 to
60 ms of CPU time), and the samples stand for the CPU time."""
import re
import sys

text = open(sys.argv[1]).read()
header = re.search(r"atomic tracer: (\d+) samples at (\d+) Hz", text)
resolution = re.search(r"resolution: (\d+) sampling signals for \d+ samples, "
                       r"one per ([\d.]+) ms of CPU time", text)
if not (header and resolution):
    sys.exit("a line of the report is missing:\n" + text)
samples, hz = int(header.group(1)), int(header.group(2))
signals, ms_per_signal = int(resolution.group(1)), float(resolution.group(2))
cpu_ms = ms_per_signal * signals
print("samples %d, signals %d, one per %.1f ms of %.0f ms of CPU time"
      % (samples, signals, ms_per_signal, cpu_ms))
# A signal a period of the CPU time the event counts (the samples' check,
# below, bounds what it leaves out).
if signals != samples:
    sys.exit("%d signals for %d samples" % (signals, samples))
if ms_per_signal > 1.5 * 1000.0 / hz:
    sys.exit("one signal per %.1f ms of CPU time at %d Hz" % (ms_per_signal, hz))
# Each signal stands for one period: what no sample has is the last period
# of each thread and the parts of context switches outside the event's
# clock, which are many here (the pair's CPU time is nearly all the
# kernel's): perf record's samples of this program stood for 76 % of its
# CPU time, the tracer's for 83 %.
if not 0.7 * cpu_ms * hz / 1000 <= samples <= 1.02 * cpu_ms * hz / 1000:
    sys.exit("samples %d for %.0f ms of CPU time" % (samples, cpu_ms))
