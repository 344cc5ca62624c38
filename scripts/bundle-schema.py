#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# bundle-schema.py VM_IN RESULT OUT - the vm schema, OUT, from VM_IN
# (schema/allocbench-vm.schema.json.in) with RESULT
# (schema/allocbench-result.schema.json) whole in its $defs, under
# "allocbench-result" (a JSON Schema 2020-12 bundle: the embedded schema
# keeps its "$id", so the vm schema's {"$ref": "allocbench-result.schema.json"}
# finds it there), so that it validates with the plain command
#   python3 -m jsonschema -i vm.json build/schema/allocbench-vm.schema.json
# with no --base-uri and no network. make runs it (build/schema/, which
# make install installs): the result schema is written once, in RESULT.
import json
import os
import sys

KEY = '"allocbench-result": '


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: bundle-schema.py VM_IN RESULT OUT")
    vm_in, result, out = sys.argv[1:]
    with open(vm_in, encoding="utf-8") as f:
        vm_text = f.read()
    with open(result, encoding="utf-8") as f:
        result_text = f.read()
    json.loads(result_text)
    at = vm_text.find(KEY)
    if at < 0:
        sys.exit("bundle-schema: no %s entry in the $defs of %s" % (KEY, vm_in))
    start = at + len(KEY)
    _, end = json.JSONDecoder().raw_decode(vm_text, start)
    body = result_text.strip().replace("\n", "\n    ")
    text = vm_text[:start] + body + vm_text[end:]
    json.loads(text)
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(out + ".tmp", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
