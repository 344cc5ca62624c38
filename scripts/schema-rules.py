#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# schema-rules.py SCHEMA - the rule tables of lib/results/jsonin.c, made
# from schema/allocbench-result.schema.json (make writes them to
# build/gen/jsonin_rules.h), so that the saved document is described once,
# in the schema, and the reader checks what it says:
#
#   - each property becomes a rule: "string" (or an enum or const of
#     strings) J_STR, "integer" J_INT (its "minimum", else none; a const
#     integer is its own minimum), "number" J_NUM, "boolean" J_BOOL, an
#     object with "properties" J_OBJ (its members' rules), an array J_ARR
#     (its items' rule; minItems = maxItems its fixed length); null among
#     its types, or a oneOf with {"type": "null"}, adds J_NULL; a $ref to
#     alloc_result or lookup_result, or a oneOf of them, J_RESULT (the
#     reader picks the kind's table by "kind");
#   - what the reader needs is "x-reader-required" (older documents lack
#     some of the schema's "required"), J_REQ;
#   - a property of several types besides null (data) is not checked;
#     "minimum" of a number, "pattern", "enum" values and "allOf" are the
#     schema validator's alone.
import json
import sys

RESULTS = ("alloc_result", "lookup_result")


class Gen:
    def __init__(self, schema):
        self.schema = schema
        self.out = []
        self.done = {}

    def deref(self, node):
        ref = node.get("$ref")
        if ref is None:
            return None, node
        name = ref.rsplit("/", 1)[1]
        return name, self.schema["$defs"][name]

    def table(self, name, node):
        """The rules of object @node's members, as table NAME_rules."""
        if name in self.done:
            return self.done[name]
        need = node.get("x-reader-required", [])
        props = node.get("properties", {})
        for key in need:
            if key not in props:
                sys.exit("schema-rules: %s: x-reader-required names %s, "
                         "not among its properties" % (name, key))
        rows = []
        for key, sub in props.items():
            rule = self.rule(name + "_" + key, sub)
            if rule is None:
                continue
            typ, flags, lo, items, ref = rule
            if key in need:
                flags.insert(0, "J_REQ")
            rows.append('\t{ "%s", %s, %s, %s, %d, %s },' %
                        (key, typ, " | ".join(flags) or "0", lo, items, ref))
        cname = name + "_rules"
        self.out.append("static const struct jrule %s[] = {" % cname)
        self.out.extend(rows)
        self.out.append("\t{ NULL, 0, 0, 0, 0, NULL },")
        self.out.append("};")
        self.out.append("")
        self.done[name] = cname
        return cname

    def item(self, name, node):
        """A rule of its own for an array's items: &NAME."""
        cname = name + "_item"
        if cname in self.done:
            return "&" + cname
        rule = self.rule(name, node)
        if rule is None:
            sys.exit("schema-rules: %s: an array's items of no one type" % name)
        typ, flags, lo, items, ref = rule
        self.done[cname] = cname
        self.out.append('static const struct jrule %s = { "", %s, %s, %s, %d, %s };' %
                        (cname, typ, " | ".join(flags) or "0", lo, items, ref))
        self.out.append("")
        return "&" + cname

    def rule(self, name, node):
        """(type, flags, min, items, sub) of @node, or None: not checked."""
        flags = []
        alts = node.get("oneOf")
        if alts is not None:
            refs = [a for a in alts if a.get("type") != "null"]
            if len(refs) < len(alts):
                flags.append("J_NULL")
            if sorted(self.deref(a)[0] or "" for a in refs) == sorted(RESULTS) or \
               (len(refs) == 1 and self.deref(refs[0])[0] in RESULTS):
                return "J_RESULT", flags, "0", 0, "NULL"
            if len(refs) != 1:
                return None
            node = refs[0]
        ref, node = self.deref(node)
        if ref in RESULTS:
            return "J_RESULT", flags, "0", 0, "NULL"
        types = node.get("type")
        if types is None:
            vals = node.get("enum", [node["const"]] if "const" in node else [])
            types = sorted({"null" if v is None else
                            "boolean" if isinstance(v, bool) else
                            "string" if isinstance(v, str) else
                            "integer" if isinstance(v, int) else "number"
                            for v in vals})
        if isinstance(types, str):
            types = [types]
        if "null" in types and "J_NULL" not in flags:
            flags.append("J_NULL")
        types = [t for t in types if t != "null"]
        if len(types) != 1:
            return None
        t = types[0]
        if t == "string":
            return "J_STR", flags, "0", 0, "NULL"
        if t == "boolean":
            return "J_BOOL", flags, "0", 0, "NULL"
        if t == "number":
            return "J_NUM", flags, "0", 0, "NULL"
        if t == "integer":
            lo = node.get("minimum", node.get("const"))
            return "J_INT", flags, "LLONG_MIN" if lo is None else str(lo), 0, "NULL"
        if t == "object":
            return "J_OBJ", flags, "0", 0, self.table(ref or name, node)
        if t == "array":
            n = node.get("minItems", 0)
            fixed = n if n and node.get("maxItems") == n else 0
            if "items" not in node:
                return None
            iname, inode = self.deref(node["items"])
            return "J_ARR", flags, "0", fixed, self.item(iname or name, node["items"])
        return None


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: schema-rules.py SCHEMA")
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    g = Gen(schema)
    for kind in RESULTS:
        g.table(kind, schema["$defs"][kind])
    g.table("top", schema)
    print("/* SPDX-License-Identifier: GPL-2.0-only */")
    print("/* Made by scripts/schema-rules.py from %s: do not edit. */" % sys.argv[1])
    print("\n".join(g.out))


if __name__ == "__main__":
    main()
