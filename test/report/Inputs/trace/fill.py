#!/usr/bin/env python3
"""fill.py TEMPLATE NM.txt [NAME=VALUE...]: writes TEMPLATE with @NAME@
replaced by VALUE, and @SYM:symbol@ by the symbol's address in NM.txt
(`llvm-nm` output) as "0x..."."""
import re
import sys

addresses = {}
with open(sys.argv[2]) as f:
    for line in f:
        parts = line.split()
        if len(parts) == 3:
            addresses[parts[2]] = int(parts[0], 16)
text = open(sys.argv[1]).read()
for arg in sys.argv[3:]:
    name, value = arg.split("=", 1)
    text = text.replace("@%s@" % name, value)
sys.stdout.write(re.sub(r"@SYM:([\w.]+)@",
                        lambda m: hex(addresses[m.group(1)]), text))
