"""Prints bench/paired.py's answers on known inputs (test/bench/paired.test)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "bench"))
import paired  # noqa: E402

# Ratios 1.1, 0.9, 1.05, 0.97: geometric mean 1.002; the logs' standard
# deviation 0.0884, t(3) 3.182: the interval is exp(mean -+ 0.141).
print("mean %.4f low %.4f high %.4f" %
      paired.ratio_interval([1.1, 0.9, 1.05, 0.97], [1, 1, 1, 1]))
print("one pair: %.1f %.1f %.1f" % paired.ratio_interval([2.0], [1.0]))
# 1 degree of freedom: t 12.706; 35 degrees: the table's 30 (2.042).
print("t %.3f %.3f %.3f" % (paired.t975(1), paired.t975(35), paired.t975(500)))
argv = ["script", "BUILD", "--cpus", "0,2-3", "7"]
print("cpus", sorted(paired.take_cpus(argv)), "argv", argv[1:])
argv = ["script", "--cpus=1"]
print("cpus", sorted(paired.take_cpus(argv)), "argv", argv[1:])
print("none", paired.take_cpus(["script", "BUILD"]), paired.pinned(None))
