# The JSON record of real runs, checked against the run: bytes equal the
# file size, every reading phase reports its residency, the cache states
# match the mode (default cold, --cache=keep, --direct), the seed is
# recorded, and the document matches doc/schema.json.

. tests/lib.sh
scratch
SCHEMA=$(pwd)/doc/schema.json

# validate FILE: against the JSON Schema with python3 jsonschema when it
# is installed, else a structural check with jq.
have_jsonschema=0
python3 -c 'import jsonschema' >/dev/null 2>&1 && have_jsonschema=1
validate() {
	if [ $have_jsonschema -eq 1 ]; then
		python3 tests/schema.py "$SCHEMA" "$1"
	else
		jq -e '.schema == "bonnie-ng/1" and
		    (["tool","version","command","start","system","target",
		      "options","runs","summary"] - keys == []) and
		    all(.runs[].phases[] | select(. != null);
		        (["bytes","ops","elapsed_s","rate","cache","io",
		          "resident","latency","imprecise"] - keys) == [])' \
		    "$1" >/dev/null
	fi
}
vdesc="matches doc/schema.json"
[ $have_jsonschema -eq 1 ] || vdesc="has the schema's structure (jq check)"

# jqt DESC FILTER FILE: pass when the jq filter is true.
jqe() {
	jq -e "$@" >/dev/null
}
jqt() {
	ok "$1" jqe "$2" "$3"
}

finish() {
	done_testing
	exit $?
}

if [ ! -x "$BONNIE" ]; then
	skip "no $BONNIE binary (engine not built)"
	finish
fi
if ! command -v jq >/dev/null 2>&1; then
	skip "jq not installed"
	finish
fi

# The default run: cold cache, a given seed.
"$BONNIE" -d "$T" -s 4m -c 4k -q -z 7 --json "$T/r.json" \
    >"$T/out" 2>"$T/err"
st=$?
if [ $st -eq 2 ] && grep -qi 'json\|unknown\|unrecognized\|invalid option' "$T/err"; then
	skip "$BONNIE lacks --json: $(head -n 1 "$T/err")"
	finish
fi
check "default run exits 0" $st
[ $st -eq 0 ] || diag "$(cat "$T/err")"
R=$T/r.json
ok "record written" test -s "$R"
ok "record $vdesc" validate "$R"
jqt "schema bonnie-ng/1" '.schema == "bonnie-ng/1"' "$R"
ok "command is the argv" jqe --arg t "$T" '.command[1:] == ["-d", $t,
    "-s", "4m", "-c", "4k", "-q", "-z", "7", "--json", ($t + "/r.json")]' \
    "$R"
jqt "size and chunk recorded" \
    '.options.size_bytes == 4194304 and .options.chunk == 4096' "$R"
jqt "seed recorded" '.options.seed == 7 and .options.seed_given and
    .runs[0].seed == 7' "$R"
jqt "one run, no error" '(.runs | length) == 1 and .runs[0].error == null and
    .runs[0].interrupted == null' "$R"
jqt "every default phase ran" '(.options.phases | length) == 6 and
    [.options.phases[] as $p | .runs[0].phases[$p] | select(. == null)] == []' "$R"
jqt "bytes equal the file size for every byte phase" \
    '.options.size_bytes as $s | [.runs[0].phases |
    .putc, .write, .rewrite, .getc, .read | .bytes == $s] | all' "$R"
jqt "seeks counted in seeks/s" '.runs[0].phases.seeks |
    .unit == "seeks/s" and .ops > 0 and .workers >= 1' "$R"
jqt "residency reported for every reading phase" '[.runs[0].phases |
    .rewrite, .getc, .read, .seeks | has("resident") and
    (.resident == null or (.resident >= 0 and .resident <= 1))] | all' "$R"
if [ "$(uname -s)" = Linux ]; then
	jqt "residency measured on Linux" '[.runs[0].phases |
	    .rewrite, .getc, .read, .seeks | .resident | type == "number"] |
	    all' "$R"
fi
jqt "cold mode: phases cold or warm, buffered" '.options.cache == "cold" and
    ([.runs[0].phases[] | select(. != null) |
    (.cache == "cold" or .cache == "warm") and
    .io == "buffered"] | all)' "$R"
warm=$(jq '[.runs[0].phases[] | select(. != null and .cache == "warm")] |
    length' "$R")
if [ "${warm:-0}" -gt 0 ]; then
	ok "a warm phase is warned about on stderr" grep -qi warm "$T/err"
fi
jqt "summary over the one run" '.summary.read.rate.n == 1 and
    .summary.read.rate.median == .runs[0].phases.read.rate' "$R"
jqt "system and target described" '.system.os != null and
    .target.dir != null and .target.free_bytes > 0' "$R"
if [ "$(uname -s)" = Linux ]; then
	jqt "cold mode: drop time recorded for every phase" '[.runs[0].phases[] |
	    select(. != null) | .drop_s | type == "number"] | all' "$R"
fi
ok "no test file left" no_test_files "$T"

# --cache=keep, the record on stdout.
"$BONNIE" -d "$T" -s 4m -c 4k -n 4000 -q --cache=keep -o json >"$T/k.json" \
    2>"$T/err"
st=$?
check "--cache=keep -o json exits 0" $st
[ $st -eq 0 ] || diag "$(cat "$T/err")"
ok "stdout is the record and $vdesc" validate "$T/k.json"
jqt "keep mode: every phase keep, no drops" '.options.cache == "keep" and
    ([.runs[0].phases[] | select(. != null) | .cache == "keep" and
    .drop_s == null] | all)' "$T/k.json"
# The portable half's kernel account (t-kstat checks Linux's): what it
# cannot read is null with "not known" and why, rusage's counters only, and
# the timeline has no dirty gauge.
if portable; then
	jqt "portable: vmstat, disk and pressure null with the reason; rusage's counters" \
	    '.runs[0].phases.read.kernel | .vmstat == null and
	    (.vmstat_why | test("not known")) and .disk == null and
	    .pressure == null and .process.processes == 1 and
	    .process.read_bytes == null' "$T/k.json"
	jqt "portable: no dirty gauges, in the record or the timeline" \
	    '.runs[0].phases.write.kernel | .dirty == null and
	    ([.timeline.samples[]? | .[2]] | all(. == null))' "$T/k.json"
fi

# --direct, when the scratch file system takes O_DIRECT (tmpfs does not).
if ! dd if=/dev/zero of="$T/d" bs=4096 count=1 oflag=direct \
    >/dev/null 2>&1; then
	skip "no O_DIRECT on $T"
elif no_direct; then
	skip "this build has no O_DIRECT (the portable build on glibc)"
else
	rm -f "$T/d"
	"$BONNIE" -d "$T" -s 4m -c 4k -n 4000 -q --direct --json "$T/d.json" \
	    >/dev/null 2>"$T/err"
	st=$?
	check "--direct exits 0" $st
	[ $st -eq 0 ] || diag "$(cat "$T/err")"
	ok "direct record $vdesc" validate "$T/d.json"
	jqt "direct: block phases direct" '.options.direct and ([.runs[0].phases |
	    .write, .rewrite, .read, .seeks | .cache == "direct" and
	    .io == "direct"] | all)' "$T/d.json"
	jqt "direct: per-char phases stay buffered" '[.runs[0].phases |
	    .putc, .getc | .io == "buffered" and .cache != "direct"] | all' \
	    "$T/d.json"
fi
# A run that fails still writes its record, with the error.
if ! is_root || [ "$(uname -s)" != Linux ]; then
	skip "a full tmpfs needs root on Linux"
elif mkdir "$T/full" && mount -t tmpfs -o size=1m bonnie-ng-test "$T/full" \
    2>/dev/null; then
	T_MOUNTS="$T/full"
	"$BONNIE" -d "$T/full" -s 4m -c 4k -q --no-space-check \
	    --json "$T/e.json" >/dev/null 2>"$T/err"
	st=$?
	check "a full file system fails the run" $((st == 1 ? 0 : 1))
	ok "failed run's record $vdesc" validate "$T/e.json"
	jqt "error object names ENOSPC in the first phase" '.runs[0] |
	    .error.errno == 28 and .error.phase == "putc" and
	    .error.offset > 0 and (.error.path | type == "string") and
	    .phases.putc == null and .interrupted == null' "$T/e.json"
	ok "no test file left on the full file system" no_test_files "$T/full"
	scratch_umount "$T/full"
else
	skip "cannot mount tmpfs"
fi
ok "no test file left at the end" no_test_files "$T"
finish
