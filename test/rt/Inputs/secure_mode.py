"""Runs secure-mode.test's scenarios: PROG (secure_prog.c) setuid root and
started as an unprivileged user, and the same program without the setuid
bit, with options that name files and programs; FAKE (fake_symbolizer.c) is
the program those options name. Prints, per scenario, what the program
wrote, how it ended, and which files appeared, for FileCheck.

PROG_DEFAULTS is PROG built with a report_path in __pcmap_default_options().

Usage: secure_mode.py PROG PROG_DEFAULTS FAKE
Needs root (to make a setuid-root copy) and setpriv (util-linux)."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile

NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def main():
    prog, prog_defaults, fake = sys.argv[1:4]
    # A directory every user can enter (the build tree may not be), owned by
    # root: an unprivileged user cannot create anything in it, so whatever
    # appears there was made by the privileged program.
    top = tempfile.mkdtemp(prefix="pcmap-secure-")
    try:
        os.chmod(top, 0o755)
        run_all(top, prog, prog_defaults, fake)
    finally:
        shutil.rmtree(top)


def install(src, dst, mode):
    shutil.copyfile(src, dst)
    os.chown(dst, 0, 0)
    os.chmod(dst, mode)


def run_all(top, prog, prog_defaults, fake):
    out = os.path.join(top, "out")
    bin_dir = os.path.join(top, "bin")
    for d in (out, bin_dir):
        os.mkdir(d)
        os.chmod(d, 0o755)
    suid = os.path.join(top, "suid_prog")
    plain = os.path.join(top, "plain_prog")
    evil = os.path.join(top, "evil")
    install(prog, suid, 0o4755)
    install(prog, plain, 0o755)
    suid_defaults = os.path.join(top, "suid_defaults")
    plain_defaults = os.path.join(top, "plain_defaults")
    install(prog_defaults, suid_defaults, 0o4755)
    install(prog_defaults, plain_defaults, 0o755)
    install(fake, evil, 0o755)
    # The first llvm-symbolizer on the caller's PATH.
    install(fake, os.path.join(bin_dir, "llvm-symbolizer"), 0o755)

    def scenario(title, argv, options, as_nobody, extra_env=None):
        env = {"PATH": bin_dir + ":/usr/bin:/bin", "PCMAP_OPTIONS": options}
        env.update(extra_env or {})
        cmd = (NOBODY if as_nobody else []) + argv
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, cwd=top)
        print("== %s" % title)
        sys.stdout.write(proc.stdout.decode("utf-8", "replace"))
        if proc.returncode < 0:
            print("status: killed by %s" % signal.Signals(-proc.returncode).name)
        else:
            print("status: exit %d" % proc.returncode)
        report_files(top)

    def report_files(where):
        made = []
        for root, _, files in os.walk(where):
            for name in files:
                path = os.path.join(root, name)
                rel = os.path.relpath(path, top)
                if rel.startswith("out/") or rel.endswith(".seen"):
                    made.append(path)
        if not made:
            print("files: none")
        for path in sorted(made):
            st = os.lstat(path)
            # Names end in .<pid>; the pid is not known in advance.
            rel = os.path.relpath(path, top)
            stem, _, pid = rel.rpartition(".")
            shown = stem + ".PID" if pid.isdigit() else rel
            print("file: %s mode %o uid %d" % (shown, st.st_mode & 0o7777, st.st_uid))
            if path.endswith(".seen"):
                for line in open(path):
                    if line.startswith("fds:"):
                        fds = sorted(int(f) for f in line.split()[1:])
                        line = "fds: %s\n" % " ".join(map(str, fds))
                    sys.stdout.write("  " + line)
            os.unlink(path)

    # Setuid root, started by nobody: every option that names a path or a
    # program is ignored.
    scenario("setuid report_path", [suid],
             "report_functions=1:report_path=%s/owned" % out, True)
    scenario("setuid log_path", [suid],
             "verbosity=2:log_path=%s/pcmap_owned" % out, True)
    scenario("setuid symbolizer", [suid, "crash"],
             "symbolizer_path=%s" % evil, True,
             {"PCMAP_SYMBOLIZER_PATH": evil})
    scenario("setuid PATH symbolizer", [suid, "crash"], "", True)
    # Options compiled into the program apply, but not a path.
    scenario("setuid default options", [suid_defaults], "", True)
    # The same programs without the setuid bit obey them.
    scenario("plain report_path", [plain],
             "report_functions=1:report_path=%s/owned" % out, False)
    scenario("plain log_path", [plain],
             "verbosity=2:log_path=%s/pcmap_owned" % out, False)
    scenario("plain default options", [plain_defaults], "", False)
    scenario("plain symbolizer", [plain, "crash"],
             "symbolizer_path=%s" % evil, False)


if __name__ == "__main__":
    main()
