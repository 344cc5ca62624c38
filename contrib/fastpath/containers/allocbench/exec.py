#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""exec.py - the container's entrypoint for Fastpath (its developer guide,
benchmarkintegrate, names the entrypoint exec.py): read the benchmark object
Fastpath writes to /fastpath-share/benchmark.yaml (its "command:" parameter:
an allocbench command line, default "reproduce 2019-scatterlist"), load the
module for the SUT's kernel when it is not loaded, run allocbench, and write
/fastpath-share/results.csv (allocbench export --format=fastpath); the saved
result stays beside it as allocbench.json. Any failure ends the container
with allocbench's own status and its message on stderr.

The module: a kernel profile ships the kernel image and a modules tarball,
no build tree, so the module is built where the kernel's build tree is and
shipped in that tarball (lib/modules/RELEASE/updates/allocbench.ko, with
depmod's files: docs/export.md), and modprobe loads it from the SUT's
/lib/modules, which the container must see (under $ALLOCBENCH_ROOT, default
/: modprobe -d). Only where that holds the kernel's build tree
(lib/modules/RELEASE/build with its Makefile) is the module built here. Without either,
one line says what the profile must provide, status 3 (allocbench's "the
backend is unavailable")."""
import os
import re
import shlex
import subprocess
import sys

SHARE = os.environ.get("FASTPATH_SHARE", "/fastpath-share")
ROOT = os.environ.get("ALLOCBENCH_ROOT", "/")
MODULES = os.path.join(ROOT, "lib", "modules")
# the module's sources, where the Dockerfile's make install put them
SRC = "/usr/local/lib/allocbench/src"


def command():
    """The "command:" line of benchmark.yaml (no YAML library needed for one
    scalar), or the 2019 experiment."""
    try:
        with open(os.path.join(SHARE, "benchmark.yaml"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"\s*command:\s*(.+?)\s*$", line)
                if m:
                    return shlex.split(m.group(1).strip("'\""))
    except FileNotFoundError:
        pass
    return ["reproduce", "2019-scatterlist"]


def run(args):
    r = subprocess.run(args, check=False)
    if r.returncode:
        sys.exit(r.returncode)


def loaded():
    try:
        with open("/proc/modules", encoding="utf-8") as f:
            return any(l.split()[:1] == ["allocbench"] for l in f)
    except OSError:
        return False


def load_module():
    """The module for the running kernel: the profile's (modprobe), or one
    built here against a build tree the container sees (above)."""
    if loaded():
        return
    rel = os.uname().release
    r = subprocess.run(["modprobe", "-d", ROOT, "allocbench"], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode == 0:
        return
    kdir = os.path.join(MODULES, rel, "build")
    if not os.path.isfile(os.path.join(kdir, "Makefile")):
        sys.stderr.write(
            "exec.py: no allocbench module for kernel %s: the kernel "
            "profile's modules tarball must hold lib/modules/%s/updates/"
            "allocbench.ko built against that kernel (and depmod's "
            "modules.dep), seen here under %s, or the container must see "
            "its build tree at %s (docs/export.md)\n" % (rel, rel, MODULES,
                                                        kdir))
        sys.exit(3)
    run(["make", "-C", os.path.join(SRC, "kmod"), "KDIR=" + kdir])
    run(["insmod", os.path.join(SRC, "kmod", "allocbench.ko")])


def main():
    load_module()
    saved = os.path.join(SHARE, "allocbench.json")
    run(["allocbench"] + command() + ["--json", "-q", "-o", saved])
    run(["allocbench", "export", "--format=fastpath", saved,
         "-o", os.path.join(SHARE, "results.csv")])


main()
