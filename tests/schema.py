# Validate JSON documents against the record schema:
#
#   python3 tests/schema.py SCHEMA [-d NAME] FILE...
#   python3 tests/schema.py SCHEMA --check
#
# Each FILE against the schema's root (a run record) or, with -d NAME,
# against its $defs/NAME (sweep_record, compare_record, ...), the whole
# document as the root so that the references to the run record's system,
# target and options resolve.  --check checks the schema itself against
# its meta-schema, which jsonschema.validate() does on every call (0.08 s
# of Debian's 0.1 s a call here, 0.22 s of 0.33 s with a newer
# jsonschema): tests/t-record.c does it once, and no other call repeats
# it.  Exit 0 valid, 1 not (the file and its first error on stdout as a
# TAP comment), 2 when the jsonschema module is missing.
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.exit(2)

args = sys.argv[1:]
schema = json.load(open(args.pop(0)))
cls = jsonschema.validators.validator_for(schema)
if args == ["--check"]:
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as e:
        print("# the schema: %s" % e.message[:200])
        sys.exit(1)
    sys.exit(0)
sub = schema
if args[:1] == ["-d"]:
    sub = {"$ref": schema["$id"] + "#/$defs/" + args[1]}
    args = args[2:]
try:
    from referencing import Registry, Resource
    registry = Registry().with_resource(schema["$id"],
                                        Resource.from_contents(schema))
    validator = cls(sub, registry=registry)
except ImportError:
    # Older jsonschema (Debian's) resolves through RefResolver.
    validator = cls(sub, resolver=jsonschema.RefResolver.from_schema(schema))
# The formats (date-time...) checked too, where this jsonschema has them.
checker = getattr(cls, "FORMAT_CHECKER", None)
if checker is not None:
    validator = validator.evolve(format_checker=checker)
for name in args:
    errors = sorted(validator.iter_errors(json.load(open(name))),
                    key=lambda e: list(map(str, e.path)))
    if errors:
        e = errors[0]
        while e.context:
            e = e.context[-1]
        print("# %s: %s at %s" % (name, e.message[:200],
                                  "/".join(map(str, e.absolute_path))))
        sys.exit(1)
