"""Reads a report on standard input: its longest line, and how many lines
end with the cut's marker ("...") or hold a path with "/../".

Usage: line_widths.py < REPORT"""
import sys

lines = sys.stdin.read().splitlines()
print("lines: %s" % ("some" if lines else "none"))
print("longest: %d" % max((len(l) for l in lines), default=0))
print("cut: %s" % ("some" if any(l.endswith("...") for l in lines) else "none"))
print("paths with /../: %d" % sum("/../" in l for l in lines))
