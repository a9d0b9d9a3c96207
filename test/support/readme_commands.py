#!/usr/bin/env python3
"""Runs every command the README shows, so that none of them rots.

The README's commands are its fenced blocks marked `sh` (one command a
line) and `cmake` (lines of a CMakeLists.txt). Each runs in WORK, as a user
would type it, with these stand-ins, so that the suite neither installs
packages nor builds pcmap a second time:

  bash scripts/test.sh          the CI's own command: .ci/run must run it
  bash scripts/demo.sh          run with --build BUILD (no set-up)
  cmake -S . -B build ...       configured for real, in WORK/build
  ninja -C build                `ninja -n` in that configured tree
  cmake --install build ...     installs BUILD, the suite's own build
  cd build && cpack -G DEB      test/install/lintian.test makes the package
  /opt/pcmap                    WORK/opt/pcmap

Every other command runs as written (in WORK, where examples/ is the
source's) and must exit with status 0, or with the status EXPECTED_STATUS
gives it. A `cmake` block is built as a project of one target, `app`, made
of main.c, against the installed package. Prints a line per command; exits
1 if any failed.

usage: readme_commands.py --source ROOT --build BUILD --work WORK
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

# Commands that end as documented with another status than 0.
EXPECTED_STATUS = {
    # The planted bug: reported, then killed by SIGSEGV as without pcmap.
    "./refcache --bug": 128 + 11,
}


def fenced_blocks(text):
    """(language, lines) of each fenced block."""
    blocks, language, lines = [], None, []
    for line in text.splitlines():
        fence = re.match(r"^```(\S*)\s*$", line)
        if fence and language is None:
            language, lines = fence.group(1), []
        elif line.startswith("```") and language is not None:
            blocks.append((language, lines))
            language = None
        elif language is not None:
            lines.append(line)
    if language is not None:
        sys.exit("readme_commands.py: a fenced block is not closed")
    return blocks


def without_comment(command):
    """The command as written, without a trailing `# comment`."""
    return re.sub(r"(^|\s+)#(\s.*)?$", "", command).strip()


class Runner:
    def __init__(self, args):
        self.source = os.path.abspath(args.source)
        self.build = os.path.abspath(args.build)
        self.work = os.path.abspath(args.work)
        self.prefix = os.path.join(self.work, "opt", "pcmap")
        self.env = dict(os.environ)
        self.failed = 0

    def run(self, argv, cwd=None, shell=False, status=0, show=None):
        result = subprocess.run(
            argv, cwd=cwd or self.work, shell=shell, env=self.env,
            executable="/bin/bash" if shell else None,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # bash reports a child killed by signal N as 128 + N.
        code = result.returncode if result.returncode >= 0 \
            else 128 - result.returncode
        if code != status:
            self.failed += 1
            print("FAILED: %s: exit status %d, expected %d" %
                  (show or argv, code, status))
            print(result.stdout[-4000:])
            return None
        return result.stdout

    def command(self, line):
        cmd = without_comment(line)
        if not cmd:
            return
        words = shlex.split(cmd)
        cmd_here = cmd.replace("/opt/pcmap", self.prefix)
        if cmd == "bash scripts/test.sh":
            ci = open(os.path.join(self.source, ".ci", "run")).read()
            if "scripts/test.sh" not in ci:
                self.failed += 1
                print("FAILED: %s: .ci/run does not run it" % cmd)
            else:
                print("covered by .ci/run: %s" % cmd)
        elif cmd == "bash scripts/demo.sh":
            out = self.run(["bash", "scripts/demo.sh", "--build", self.build,
                            "--out", os.path.join(self.work, "demo")],
                           cwd=self.source, show=cmd)
            if out is not None:
                print("ran (with --build): %s" % cmd)
                print(out, end="", file=open(
                    os.path.join(self.work, "demo.log"), "w"))
        elif words[:3] == ["cmake", "-S", "."]:
            argv = [os.path.join(self.work, w) if w == "build" else w
                    for w in words]
            if self.run(argv, cwd=self.source, show=cmd) is not None:
                print("ran (in WORK/build): %s" % cmd)
        elif words == ["ninja", "-C", "build"]:
            if self.run(["ninja", "-n", "-C", os.path.join(self.work, "build")],
                        show=cmd) is not None:
                print("ran (ninja -n): %s" % cmd)
        elif words[:3] == ["cmake", "--install", "build"]:
            argv = ["cmake", "--install", self.build] + [
                w.replace("/opt/pcmap", self.prefix) for w in words[3:]]
            if self.run(argv, show=cmd) is not None:
                print("ran (the suite's build): %s" % cmd)
        elif cmd == "cd build && cpack -G DEB":
            test = os.path.join(self.source, "test", "install", "lintian.test")
            if "cpack -G DEB" in open(test).read():
                print("covered by test/install/lintian.test: %s" % cmd)
            else:
                self.failed += 1
                print("FAILED: %s: test/install/lintian.test does not" % cmd)
        elif words[0] == "export" and len(words) == 2 and "=" in words[1]:
            name, _, value = shlex.split(cmd_here)[1].partition("=")
            self.env[name] = value.replace("$" + name, self.env.get(name, ""))
            print("set: %s" % cmd)
        else:
            status = EXPECTED_STATUS.get(cmd, 0)
            if self.run(cmd_here, shell=True, status=status,
                        show=cmd) is not None:
                print("ran: %s" % cmd)

    def cmake_project(self, lines):
        project = os.path.join(self.work, "cmake-project")
        os.makedirs(project, exist_ok=True)
        with open(os.path.join(project, "main.c"), "w") as f:
            f.write("int main(void) { return 0; }\n")
        with open(os.path.join(project, "CMakeLists.txt"), "w") as f:
            f.write("cmake_minimum_required(VERSION 3.20)\nproject(app C)\n")
            body = "\n".join(lines) + "\n"
            if "add_executable(app" not in body:
                f.write("add_executable(app main.c)\n")
            f.write(body)
        tree = os.path.join(project, "build")
        ok = self.run(["cmake", "-S", project, "-B", tree,
                       "-DCMAKE_PREFIX_PATH=" + self.prefix,
                       "-DCMAKE_C_COMPILER=" + self.clang()],
                      show="the cmake block: configure") is not None
        ok = ok and self.run(["cmake", "--build", tree],
                             show="the cmake block: build") is not None
        ok = ok and self.run([os.path.join(tree, "app")],
                             show="the cmake block: app") is not None
        if ok:
            print("built and ran: the cmake block (%d lines)" % len(lines))

    def clang(self):
        for line in open(os.path.join(self.build, "CMakeCache.txt")):
            if line.startswith("PCMAP_CLANG:"):
                return line.split("=", 1)[1].strip()
        sys.exit("readme_commands.py: no PCMAP_CLANG in the build's cache")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--readme", default=None)
    args = parser.parse_args()
    runner = Runner(args)
    shutil.rmtree(runner.work, ignore_errors=True)
    os.makedirs(runner.work)
    os.symlink(os.path.join(runner.source, "examples"),
               os.path.join(runner.work, "examples"))
    readme = args.readme or os.path.join(runner.source, "README.md")
    commands = 0
    for language, lines in fenced_blocks(open(readme).read()):
        if language == "sh":
            for line in lines:
                runner.command(line)
                commands += 1
        elif language == "cmake":
            runner.cmake_project(lines)
            commands += 1
    print("%d commands and blocks, %d failed" % (commands, runner.failed))
    return 1 if runner.failed else 0


if __name__ == "__main__":
    sys.exit(main())
