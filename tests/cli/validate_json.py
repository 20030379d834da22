#!/usr/bin/env python3
"""Validates spmvlab JSON outputs against the schemas in schemas/ (JSON Schema draft 2020-12).

Usage: validate_json.py [--closed] SCHEMA_DIR SCHEMA_FILE JSON_FILE...
       validate_json.py --lint SCHEMA_DIR
  SCHEMA_FILE names a file of SCHEMA_DIR (e.g. bench.schema.json); every schema of SCHEMA_DIR is
  loaded so that "$ref": "meta.schema.json" resolves locally (nothing is fetched).

  Every run first checks that the schemas are closed (--lint does only that): every object
  level of every schema (a subschema with "properties" or "type": "object", the meta block and
  the shared $defs included) says "unevaluatedProperties": false, so that a key an output emits
  and its schema does not declare is a violation, not silently accepted. A $defs entry named
  *_fields is a set of fields composed by allOf into schemas that close it (bench's run head,
  shared with the CSV sidecar): its top level is exempt, its nested levels are not.

  --closed: each JSON_FILE must be valid, and then, for every object in it (the top level, the
  meta block, each result, ...), the same document with one undeclared key added to that object
  must be invalid. This proves the contract is exact for the shapes the file holds.

Exit status: 0 all valid; 1 a violation (each printed with its JSON path), a schema that is not
closed, or (--closed) an added key that was accepted; 2 bad usage or an unreadable file; 77 when
this interpreter has no jsonschema module (the caller skips visibly).
Used by tests/cli/test_cli_schema.cpp; works with python3-jsonschema 4.x (Debian 12 has 4.10,
which implements draft 2020-12's unevaluatedProperties; nothing newer is used).
"""
import copy
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("validate_json.py: no jsonschema module in " + sys.executable, file=sys.stderr)
    sys.exit(77)

# keywords whose subschemas only test (they are not object levels of the output)
_TEST_ONLY = {"if", "not"}
UNDECLARED_KEY = "__undeclared_key__"


def load_store(schema_dir):
    store = {}
    for path in sorted(glob.glob(os.path.join(schema_dir, "*.schema.json"))):
        with open(path) as f:
            s = json.load(f)
        store[s["$id"]] = s
        store[os.path.basename(path)] = s
    return store


def open_levels(schema, where="#"):
    """The JSON pointers of the object levels of `schema` that are not closed."""
    out = []
    if isinstance(schema, dict):
        is_object = "properties" in schema or schema.get("type") == "object"
        if is_object and schema.get("unevaluatedProperties") is not False:
            out.append(where)
        for k, v in schema.items():
            if k in _TEST_ONLY:
                continue
            if k in ("properties", "$defs", "patternProperties"):
                for name, sub in v.items():
                    if k == "$defs" and name.endswith("_fields"):
                        # a set of fields to compose (allOf), closed by the schemas that use
                        # it: its own levels below are checked, its top level is not
                        sub = dict(sub, unevaluatedProperties=False)
                    out += open_levels(sub, f"{where}/{k}/{name}")
            else:
                out += open_levels(v, f"{where}/{k}")
    elif isinstance(schema, list):
        for i, v in enumerate(schema):
            out += open_levels(v, f"{where}/{i}")
    return out


def lint(store):
    """Prints every object level that is not closed; returns their count."""
    bad = 0
    for name, s in store.items():
        if name.startswith("http"):
            continue
        for where in open_levels(s):
            print(f"{name}: {where}: an object level without \"unevaluatedProperties\": false")
            bad += 1
    return bad


def validator_for(schema, store):
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    try:  # jsonschema >= 4.18: the referencing registry
        from referencing import Registry, Resource

        registry = Registry().with_resources(
            (k, Resource.from_contents(v)) for k, v in store.items() if k.startswith("http"))
        return cls(schema, registry=registry)
    except ImportError:
        resolver = jsonschema.RefResolver.from_schema(
            schema, store={k: v for k, v in store.items() if k.startswith("http")})
        return cls(schema, resolver=resolver)


def leaf_errors(error):
    """An error of a oneOf / anyOf names no key; its most relevant sub-error does."""
    if error.context:
        return leaf_errors(jsonschema.exceptions.best_match(error.context))
    return [error]


def objects(instance, path=()):
    """The paths of every object in `instance`, the top level first."""
    if isinstance(instance, dict):
        yield path
        for k, v in instance.items():
            yield from objects(v, path + (k,))
    elif isinstance(instance, list):
        for i, v in enumerate(instance):
            yield from objects(v, path + (i,))


def with_undeclared_key(instance, path):
    doc = copy.deepcopy(instance)
    node = doc
    for p in path:
        node = node[p]
    node[UNDECLARED_KEY] = 0
    return doc


def main(argv):
    closed = "--closed" in argv[1:]
    args = [a for a in argv[1:] if a != "--closed"]
    if args and args[0] == "--lint":
        if len(args) != 2:
            print(__doc__, file=sys.stderr)
            return 2
        store = load_store(args[1])
        if not store:
            print(f"validate_json.py: no *.schema.json in {args[1]}", file=sys.stderr)
            return 2
        return 1 if lint(store) else 0
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    schema_dir, schema_name, files = args[0], args[1], args[2:]
    try:
        store = load_store(schema_dir)
        schema = store[schema_name]
    except (OSError, KeyError, ValueError) as e:
        print(f"validate_json.py: cannot load schema {schema_name} from {schema_dir}: {e}",
              file=sys.stderr)
        return 2
    bad = lint(store)
    v = validator_for(schema, store)
    for path in files:
        try:
            with open(path) as f:
                instance = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not a JSON file: {e}", file=sys.stderr)
            return 2
        errors = sorted((leaf for e in v.iter_errors(instance) for leaf in leaf_errors(e)),
                        key=lambda e: [str(p) for p in e.absolute_path])
        for e in errors:
            where = "/".join(str(p) for p in e.absolute_path) or "(top level)"
            print(f"{path}: {schema_name}: at {where}: {e.message}")
        bad += len(errors)
        if closed and not errors:
            for obj in objects(instance):
                if v.is_valid(with_undeclared_key(instance, obj)):
                    where = "/".join(str(p) for p in obj) or "(top level)"
                    print(f"{path}: {schema_name}: at {where}: an undeclared key "
                          f"\"{UNDECLARED_KEY}\" was accepted (the object level is open)")
                    bad += 1
    if bad:
        print(f"{bad} schema violation(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
