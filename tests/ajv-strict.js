// Compile doc/schema.json (argv[2]) with ajv, npm's JSON Schema validator
// for draft 2020-12, in strict mode (strict: true: no unknown keyword, no
// required property left undefined, no ambiguous type), the document and
// each record's definition: the run record (the root), the sweep record
// and the compare record.  Exit 0 compiled, 1 with ajv's reason.
const Ajv = require("ajv/dist/2020");
const s = JSON.parse(require("fs").readFileSync(process.argv[2]));
const ajv = new Ajv({ strict: true, allErrors: true });
try {
	ajv.addSchema(s);
	for (const d of ["", "#/$defs/sweep_record", "#/$defs/compare_record"])
		if (!ajv.getSchema(s.$id + d))
			throw new Error("no schema at " + s.$id + d);
	console.log("compiled");
} catch (e) {
	console.log(e.message);
	process.exit(1);
}
