#!/usr/bin/env python3
"""Validates spmvlab JSON outputs against the schemas in schemas/ (JSON Schema draft 2020-12).

Usage: validate_json.py SCHEMA_DIR SCHEMA_FILE JSON_FILE...
  SCHEMA_FILE names a file of SCHEMA_DIR (e.g. bench.schema.json); every schema of SCHEMA_DIR is
  loaded so that "$ref": "meta.schema.json" resolves locally (nothing is fetched).
Exit status: 0 all valid; 1 a violation (each printed with its JSON path); 2 bad usage or an
unreadable file; 77 when this interpreter has no jsonschema module (the caller skips visibly).
Used by tests/cli/test_cli_schema.cpp; works with python3-jsonschema 4.x (Debian 12 has 4.10).
"""
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("validate_json.py: no jsonschema module in " + sys.executable, file=sys.stderr)
    sys.exit(77)


def load_store(schema_dir):
    store = {}
    for path in sorted(glob.glob(os.path.join(schema_dir, "*.schema.json"))):
        with open(path) as f:
            s = json.load(f)
        store[s["$id"]] = s
        store[os.path.basename(path)] = s
    return store


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


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    schema_dir, schema_name, files = argv[1], argv[2], argv[3:]
    try:
        store = load_store(schema_dir)
        schema = store[schema_name]
    except (OSError, KeyError, ValueError) as e:
        print(f"validate_json.py: cannot load schema {schema_name} from {schema_dir}: {e}",
              file=sys.stderr)
        return 2
    v = validator_for(schema, store)
    bad = 0
    for path in files:
        try:
            with open(path) as f:
                instance = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not a JSON file: {e}", file=sys.stderr)
            return 2
        errors = sorted(v.iter_errors(instance), key=lambda e: list(e.absolute_path))
        for e in errors:
            where = "/".join(str(p) for p in e.absolute_path) or "(top level)"
            print(f"{path}: {schema_name}: at {where}: {e.message}")
        bad += len(errors)
    if bad:
        print(f"{bad} schema violation(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
