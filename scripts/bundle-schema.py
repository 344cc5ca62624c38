#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# bundle-schema.py [--check] - schema/allocbench-vm.schema.json carries
# schema/allocbench-result.schema.json whole in its $defs, under
# "allocbench-result" (a JSON Schema 2020-12 bundle: the embedded schema
# keeps its "$id", so the vm schema's {"$ref": "allocbench-result.schema.json"}
# finds it there), and so validates with the plain command
#   python3 -m jsonschema -i vm.json schema/allocbench-vm.schema.json
# with no --base-uri and no network. This rewrites that one entry from the
# result schema (`make schema`), leaving the rest of the file as written;
# --check only says whether it is current (status 1 when not).
import json
import os
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema")
VM = os.path.join(HERE, "allocbench-vm.schema.json")
RESULT = os.path.join(HERE, "allocbench-result.schema.json")
KEY = '"allocbench-result": '


def main():
    check = sys.argv[1:] == ["--check"]
    with open(VM, encoding="utf-8") as f:
        vm_text = f.read()
    with open(RESULT, encoding="utf-8") as f:
        result_text = f.read()
    vm = json.loads(vm_text)
    result = json.loads(result_text)
    if check:
        if vm.get("$defs", {}).get("allocbench-result") == result:
            return 0
        print("schema/allocbench-vm.schema.json: its $defs copy of "
              "allocbench-result.schema.json is out of date: run `make schema`",
              file=sys.stderr)
        return 1
    at = vm_text.find(KEY)
    if at < 0:
        print("bundle-schema: no %s entry in the $defs of %s" % (KEY, VM),
              file=sys.stderr)
        return 1
    start = at + len(KEY)
    _, end = json.JSONDecoder().raw_decode(vm_text, start)
    body = result_text.strip().replace("\n", "\n    ")
    out = vm_text[:start] + body + vm_text[end:]
    json.loads(out)
    with open(VM + ".tmp", "w", encoding="utf-8") as f:
        f.write(out)
    os.replace(VM + ".tmp", VM)
    return 0


if __name__ == "__main__":
    sys.exit(main())
