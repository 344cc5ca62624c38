#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# check.py FORMAT FILE [GOLDEN] - read FILE, written by `allocbench export
# --format=FORMAT`, as its engine reads it, from that format's own
# documentation (not from allocbench's code), and print one line per fault;
# silent and status 0 when it holds. GOLDEN: a file of the keys FILE must
# hold, one a line, exactly (the same command gives the same keys).
#
#   lkp       intel/lkp-tests sbin/dump-stat: "key: value" lines, a key
#             with no white space, a numeric value, and a '.' in any that
#             is not a whole number (dump-stat reads a value without one
#             with to_i); unique keys (one value per key and job run)
#   mmtests   gormanm/mmtests shellpack_src/parsers/time-parse-results:
#             six tab-separated fields "metric factorA factorB interval
#             value extra", "_" for an empty one, a numeric value, a whole
#             interval; one value per label (metric-factorA-factorB) and
#             interval
#   kcidb     kernelci/kcidb-io kcidb_io/schema/v04_04.py, as
#             tests/export/kcidb-v4.4.schema.json states its rules (ids,
#             origin, path, status, number {value, unit, prefix}),
#             checked with python3-jsonschema; every test's build_id names
#             a build, every build's checkout_id a checkout, ids unique
#             (builds', checkouts' and tests'), start_time a date-time
#   fastpath  results.csv with the header docs/export.md gives, each value
#             numeric, improvement bigger, smaller or none
import csv
import json
import math
import os
import re
import sys


def num(s):
    try:
        v = float(s)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def lkp(path):
    bad, keys = [], []
    for i, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line.startswith("#"):
            continue
        k, sep, v = line.partition(": ")
        if not sep or not k or re.search(r"\s", k):
            bad.append("line %d: not 'key: value' with a key free of white space: %r" % (i, line))
        elif num(v) is None:
            bad.append("line %d: %s: value %r is not a number" % (i, k, v))
        elif "." not in v and not re.fullmatch(r"-?[0-9]+", v):
            # dump-stat: v.index('.') ? v.to_f : v.to_i ("5e-05" reads 5)
            bad.append("line %d: %s: value %r has no '.', so LKP reads it as an integer" % (i, k, v))
        keys.append(k)
    seen = set()
    for k in keys:
        if k in seen:
            bad.append("key %s given twice" % k)
        seen.add(k)
    return bad, keys


def mmtests(path):
    bad, keys, seen = [], [], set()
    for i, line in enumerate(open(path, encoding="utf-8"), 1):
        f = line.rstrip("\n").split("\t")
        if len(f) != 6:
            bad.append("line %d: %d fields, not 6 tab-separated" % (i, len(f)))
            continue
        metric, fa, fb, interval, value, extra = f
        if not all(f[j] for j in range(6)):
            bad.append("line %d: an empty field (mmtests writes _)" % i)
        if not re.fullmatch(r"[0-9]+", interval):
            bad.append("line %d: interval %r is not a whole number" % (i, interval))
        if num(value) is None:
            bad.append("line %d: value %r is not a number" % (i, value))
        label = "-".join(x for x in (metric, fa, fb) if x != "_")
        if (label, interval) in seen:
            bad.append("line %d: label %s twice in interval %s" % (i, label, interval))
        seen.add((label, interval))
        if label not in keys:
            keys.append(label)
    return bad, keys


def kcidb(path):
    import jsonschema
    here = os.path.dirname(os.path.abspath(__file__))
    schema = json.load(open(os.path.join(here, "kcidb-v4.4.schema.json")))
    doc = json.load(open(path, encoding="utf-8"))
    bad = ["%s: %s" % ("/".join(str(p) for p in e.path), e.message)
           for e in jsonschema.Draft7Validator(schema).iter_errors(doc)][:5]
    if bad:
        return bad, []
    checkouts = {c["id"] for c in doc.get("checkouts", [])}
    builds = {b["id"] for b in doc.get("builds", [])}
    if len(builds) != len(doc.get("builds", [])):
        bad.append("two builds share an id")
    if len(checkouts) != len(doc.get("checkouts", [])):
        bad.append("two checkouts share an id")
    dt = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})")
    for b in doc.get("builds", []):
        if b["checkout_id"] not in checkouts:
            bad.append("build %s: checkout %s is not in the submission" % (b["id"], b["checkout_id"]))
    ids, keys = set(), []
    for t in doc.get("tests", []):
        if t["build_id"] not in builds:
            bad.append("test %s: build %s is not in the submission" % (t["id"], t["build_id"]))
        if "start_time" in t and not dt.fullmatch(t["start_time"]):
            bad.append("test %s: start_time %r is no RFC 3339 date-time" % (t["id"], t["start_time"]))
        if t["id"] in ids:
            bad.append("test id %s twice" % t["id"])
        ids.add(t["id"])
        if "number" not in t:
            bad.append("test %s: no number" % t["id"])
        p = t.get("path", "")
        if p not in keys:
            keys.append(p)
    return bad, keys


def fastpath(path):
    bad, keys = [], []
    rows = list(csv.reader(open(path, encoding="utf-8", newline="")))
    head = ["resultclass", "value", "unit", "improvement", "sample"]
    if not rows or rows[0] != head:
        return ["the header is not %s" % ",".join(head)], []
    seen = set()
    for i, r in enumerate(rows[1:], 2):
        if len(r) != len(head):
            bad.append("line %d: %d columns" % (i, len(r)))
            continue
        if num(r[1]) is None:
            bad.append("line %d: value %r is not a number" % (i, r[1]))
        if r[3] not in ("bigger", "smaller", "none"):
            bad.append("line %d: improvement %r" % (i, r[3]))
        if not re.fullmatch(r"[1-9][0-9]*", r[4]):
            bad.append("line %d: sample %r" % (i, r[4]))
        if (r[0], r[4]) in seen:
            bad.append("line %d: %s twice in sample %s" % (i, r[0], r[4]))
        seen.add((r[0], r[4]))
        if r[0] not in keys:
            keys.append(r[0])
    return bad, keys


def main():
    fmt, path = sys.argv[1], sys.argv[2]
    bad, keys = {"lkp": lkp, "mmtests": mmtests, "kcidb": kcidb,
                 "fastpath": fastpath}[fmt](path)
    if not bad and not keys:
        bad = ["no metric at all"]
    if not bad and len(sys.argv) > 3:
        want = [l.strip() for l in open(sys.argv[3]) if l.strip() and not l.startswith("#")]
        missing = [k for k in want if k not in keys]
        extra = [k for k in keys if k not in want]
        if missing or extra:
            bad.append("keys differ from %s: missing %s; new %s" % (
                os.path.basename(sys.argv[3]), missing[:3], extra[:3]))
    for b in bad[:5]:
        print(b)
    sys.exit(1 if bad else 0)


main()
