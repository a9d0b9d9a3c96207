"""The headline figures a benchmark hands bench/performance.py.

A benchmark script given `--headline FILE` writes, besides its usual
output, a small JSON file:

  {"headline": [{"id": "is_atomic_1e6",
                 "label": "`pcmap_is_atomic_pc`, 10^6 atomics",
                 "value": 42.1, "unit": "ns per query",
                 "baseline": 155.3, "baseline_label": "`std::upper_bound`",
                 "ratio": 0.271, "note": "..."}]}

value is pcmap's figure and baseline the baseline's, measured in the same
run; ratio is value / baseline unless the script computes it otherwise (the
median of per-round ratios, say), and is left out where there is no
baseline; "ratio_of": "rounds" (or "objects") says the ratio is the median
of each round's (object's) ratio, not the ratio of the medians; digits is
how many decimals the script shows; "compare": "difference" says the figure is compared with its
baseline by their difference instead (counts). note is optional text. ids are stable: the README's table names
the figures it shows by benchmark and id (bench/benchmarks.json)."""

import json
import math


class Headline:
    """The figures of one run, written by write() if a path was given."""

    def __init__(self, path):
        self.path = path
        self.entries = []

    def add(self, id, label, value, unit, baseline=None, baseline_label=None,
            ratio=None, note=None, digits=None, difference=False,
            ratio_of=None):
        """One figure. digits rounds value and baseline (as the script's own
        output shows them). difference: the figure is compared with its
        baseline by their difference (counts of system calls, say), not
        their ratio. ratio_of says what a ratio the script computed itself
        is the median of ("rounds": each round's pcmap / baseline;
        "objects": each object's)."""
        def clean(x):
            if x is None or (isinstance(x, float) and not math.isfinite(x)):
                return None
            if digits == 0:
                return int(round(x))
            if digits is not None and isinstance(x, float):
                return round(x, digits)
            return x
        if difference:
            ratio = None
        elif ratio is None and clean(value) is not None and clean(baseline):
            ratio = value / baseline
        value, baseline = clean(value), clean(baseline)
        entry = {"id": id, "label": label, "value": value, "unit": unit}
        if baseline is not None or baseline_label:
            entry["baseline"] = baseline
            entry["baseline_label"] = baseline_label
        if ratio is not None and math.isfinite(ratio):
            entry["ratio"] = round(ratio, 4)
        if digits is not None:
            entry["digits"] = digits
        if difference:
            entry["compare"] = "difference"
        elif ratio_of and "ratio" in entry:
            entry["ratio_of"] = ratio_of
        if note:
            entry["note"] = note
        self.entries.append(entry)
        return entry

    def write(self):
        if self.path:
            with open(self.path, "w") as f:
                json.dump({"headline": self.entries}, f, indent=1,
                          ensure_ascii=False)
                f.write("\n")


def take_option(argv):
    """Removes `--headline FILE` (or `--headline=FILE`) from argv, a script's
    sys.argv with positional arguments; returns FILE, or None."""
    for i, arg in enumerate(argv):
        if arg == "--headline" and i + 1 < len(argv):
            path = argv[i + 1]
            del argv[i:i + 2]
            return path
        if arg.startswith("--headline="):
            del argv[i]
            return arg.split("=", 1)[1]
    return None
