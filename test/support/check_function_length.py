"""Checks that no function is longer than a limit (issue 31: one a newcomer
can hold in their head): the lines of its body from the line of its opening
brace to that of its closing one, brace-matched, without blank lines and
comments. Lambdas and local classes count with the function around them.
Prints each function over the limit, the longest ones, then a summary line.
Usage: check_function_length.py LIMIT DIR...

Comments and string literals (raw ones too: the pages' scripts) are left
out. A function body is a brace outside any function whose text since the end of
the previous statement or block has a parenthesis and does not open a
class, struct, union, enum, namespace or extern "C" block, nor follow an
"=" (an initializer). This is not a C++ parser, but the code here is
clang-formatted, which is all it needs."""

import os
import re
import sys

SCOPE = re.compile(r"\b(class|struct|union|enum|namespace|extern)\b[^()]*$")


def strip(src):
    """The source with comments and string and character literals emptied,
    its newlines kept."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * src.count("\n", i, j))
            i = j
        elif src[i] == '"' and i and src[i - 1] == "R":
            # A raw string literal: R"delim(...)delim".
            open_paren = src.find("(", i)
            end = src.find(")" + src[i + 1:open_paren] + '"', open_paren)
            j = n if end < 0 else end + open_paren - i + 1
            out.append("\n" * src.count("\n", i, j) + '""')
            i = j
        elif src[i] in "\"'":
            quote, j = src[i], i + 1
            while j < n and src[j] != quote and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            out.append(quote + quote)
            i = j + 1
        else:
            out.append(src[i])
            i += 1
    return "".join(out)


def functions(path):
    """(lines, first line) of each function defined in the file."""
    text = strip(open(path, errors="replace").read())
    lines = text.split("\n")
    stack, line, last, found = [], 1, 0, []
    for index, ch in enumerate(text):
        if ch == "\n":
            line += 1
        elif ch == "{":
            head = text[last:index]
            in_function = any(is_function for is_function, _ in stack)
            is_function = (not in_function and ")" in head
                           and not SCOPE.search(head)
                           and not head.rstrip().endswith("="))
            stack.append((is_function, line))
            last = index + 1
        elif ch == "}":
            if stack:
                is_function, first = stack.pop()
                if is_function:
                    body = [l for l in lines[first - 1:line] if l.strip()]
                    found.append((len(body), first))
            last = index + 1
        elif ch == ";":
            last = index + 1
    return found


def main():
    limit, roots = int(sys.argv[1]), sys.argv[2:]
    every = []
    for root in roots:
        for folder, _, names in sorted(os.walk(root)):
            for name in sorted(names):
                if name.endswith((".cpp", ".h", ".c")):
                    path = os.path.join(folder, name)
                    rel = os.path.relpath(path, os.path.dirname(root))
                    every += [(n, rel, first) for n, first in functions(path)]
    every.sort(key=lambda f: (-f[0], f[1], f[2]))
    over = [f for f in every if f[0] > limit]
    for n, path, first in over:
        print("%s:%d: function of %d lines, over %d" % (path, first, n, limit))
    for n, path, first in every[:3]:
        print("longest: %s:%d: %d lines" % (path, first, n))
    print("%d functions, %d over %d lines" % (len(every), len(over), limit))


if __name__ == "__main__":
    main()
