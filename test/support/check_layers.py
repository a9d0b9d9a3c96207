"""Checks the runtime's layers (docs/design/Runtime.md, "Layout"): each layer
includes only its own headers and those of the layers below it, and only
platform/ calls the OS's signal and system-call interfaces. Prints one line
per violation, then a summary line.
Usage: check_layers.py RT_DIR"""

import os
import re
import sys

# What each layer may include, besides itself and the public headers.
ALLOWED = {
    "platform": set(),
    "core": {"platform"},
    "stackmaps": {"core", "platform"},
    "optional": {"core", "platform"},
    "testing": {"core", "platform"},
}
# Calls that only platform/ makes.
OS_CALLS = re.compile(r"(?<![\w.>])(sigaction|sigaltstack|syscall|"
                      r"pthread_sigmask|sigprocmask|timer_create)\s*\(")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/')

root = sys.argv[1]
problems = 0
files = 0
for layer in sorted(os.listdir(root)):
    folder = os.path.join(root, layer)
    if not os.path.isdir(folder):
        continue
    if layer not in ALLOWED:
        print("unknown layer: rt/%s (add it to check_layers.py)" % layer)
        problems += 1
        continue
    for name in sorted(os.listdir(folder)):
        if not name.endswith((".cpp", ".h", ".inc")):
            continue
        files += 1
        path = os.path.join(folder, name)
        with open(path) as f:
            text = f.read()
        code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
        for line in code.splitlines():
            m = INCLUDE.match(line)
            if m and m.group(1) not in ALLOWED[layer] | {layer, "pcmap"}:
                print("rt/%s/%s includes %s/" % (layer, name, m.group(1)))
                problems += 1
        if layer != "platform":
            for m in OS_CALLS.finditer(code):
                print("rt/%s/%s calls %s (only platform/ may)" %
                      (layer, name, m.group(1)))
                problems += 1
print("%d files, %d problems" % (files, problems))
