"""Writes DIR/events.json and DIR/tick.json from data-worker.json: the same
434 samples in 20 sampling signals, which task-clock events sent (duty
windows, weighted) in the first and the kernel's clock tick in the second
(a dump without "event_observations", as before it was written).

usage: observations.py DIR"""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "data-worker.json")) as f:
    dump = json.load(f)
dump["observations"] = 20
with open(os.path.join(sys.argv[1], "tick.json"), "w") as f:
    json.dump(dump, f)
dump["event_observations"] = 20
with open(os.path.join(sys.argv[1], "events.json"), "w") as f:
    json.dump(dump, f)
