# Validate a sweep record (argv[2]) against doc/schema.json's
# $defs/sweep_record (argv[1]), or the definition argv[3] names (e.g.
# compare_record), the whole document as the root so that its
# references to the run record's system, target and options resolve.
# Exit 0 valid, 1 not (the first error on stdout as a TAP comment), 2 when
# the jsonschema module is missing.
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.exit(2)

schema = json.load(open(sys.argv[1]))
record = json.load(open(sys.argv[2]))
cls = jsonschema.validators.validator_for(schema)
name = sys.argv[3] if len(sys.argv) > 3 else "sweep_record"
sub = {"$ref": schema["$id"] + "#/$defs/" + name}
try:
    from referencing import Registry, Resource
    registry = Registry().with_resource(schema["$id"],
                                        Resource.from_contents(schema))
    validator = cls(sub, registry=registry)
except ImportError:
    # Older jsonschema (Debian's) resolves through RefResolver.
    validator = cls(sub, resolver=jsonschema.RefResolver.from_schema(schema))
errors = sorted(validator.iter_errors(record), key=lambda e: list(e.path))
if errors:
    e = errors[0]
    while e.context:
        e = e.context[-1]
    print("# %s at %s" % (e.message[:200], "/".join(map(str, e.path))))
    sys.exit(1)
