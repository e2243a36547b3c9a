#!/bin/sh
# sweep --files: the file count as the sweep's axis, end to end at tiny
# counts: a table per file phase with a row per count, the files knees in
# words, in the record and on the plot, every file and directory removed,
# report redrawing it from the record, and bad values refused with exit 2
# before anything is made.
. tests/lib.sh
scratch

# On tmpfs when root: creating files on a disk's journal is slow here,
# and the test is of the sweep, not of the disk.
mkdir "$T/d"
if is_root && mount -t tmpfs -o size=64m tmpfs "$T/d" 2>/dev/null; then
	T_MOUNTS="$T/d"
fi
"$BONNIE" sweep --min-time 0 -d "$T/d" --files 4,1,2:0:0:2 --json "$T/s.json" \
    --svg "$T/s.svg" >"$T/out" 2>"$T/err"
st=$?
check "sweep --files 4,1,2 runs, the counts sorted (exit $st)" $st
[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
[ -z "$(ls -A "$T/d")" ]
check "nothing left in the directory" $?

# Six tables (the six file phases), each a header and a row per count.
shape=$(awk '
	/, files\/sec, by file count$/ { t++; inrow = 1; next }
	inrow && NF == 0 { inrow = 0; next }
	inrow && $1 == "files" { hdr++; next }
	inrow { rows = rows $1 " " }
	END { printf "%d tables, %d headers, rows %s", t, hdr, rows }' "$T/out")
diag "$shape"
[ "$shape" = "6 tables, 6 headers, rows 1k 2k 4k 1k 2k 4k 1k 2k 4k 1k 2k 4k 1k 2k 4k 1k 2k 4k " ]
check "a table per file phase with a row per count" $?
grep -q '^sequential create, files/sec, by file count$' "$T/out" &&
    grep -q '^random delete, files/sec, by file count$' "$T/out"
check "the tables are named by the phases' words" $?
grep -q '^Files knees (the file count beyond which the rate falls more than 30% and stays):$' "$T/out"
check "the files knees are reported" $?
sed -n 1p "$T/err" | grep -q '^bonnie-ng: sweep: 3 points (3 file counts), 0 B to write in all; '
check "the plan names the file counts (empty files: nothing to write)" $?
grep -q '^bonnie-ng: sweep: point 1 took [0-9.]* s; all 3 points should take about' "$T/err"
check "the estimate after the first point" $?

if command -v jq >/dev/null 2>&1; then
	jq -e '.sweep.files == [1024, 2048, 4096] and .sweep.files_dirs == 2 and
	    .options.files.files == 4096 and
	    (.points | length) == 3 and ([.points[].files] == [1024, 2048, 4096]) and
	    (.points | all(.phases.create.ops == .files and
	        .phases.stat.ops == .files and .phases.rdelete.ops == .files and
	        .phases.write == null and .phases.create.rate > 0)) and
	    (.files_knees | type) == "array" and .stopped == null' \
	    "$T/s.json" >/dev/null
	check "the record: a point per count, each phase counting its files" $?
	# Every knee the record names is a fall of more than the threshold
	# from the best before it, and ends at a count of the sweep.
	jq -e '.files_knees | all(.pct > 30 and .after < .before * 0.7 and
	    .to_files > .files and (.files as $f | [1024, 2048, 4096] |
	    index($f)) != null)' \
	    "$T/s.json" >/dev/null
	check "the record's files knees follow the rule" $?
	n_knees=$(jq '.files_knees | length' "$T/s.json")
else
	skip "jq is not installed"
	skip "jq is not installed"
	n_knees=
fi
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$T/s.svg"
	check "the plot is well-formed SVG" $?
	n=$(xmllint --xpath 'count(//*[local-name()="polyline"])' "$T/s.svg")
	m=$(xmllint --xpath 'count(//*[@class="legend"])' "$T/s.svg")
	[ "$n" = 6 ] && [ "$m" = 6 ]
	check "a line and a legend entry per phase ($n, $m)" $?
else
	skip "xmllint is not installed"
	skip "xmllint is not installed"
fi
grep -q '>files, k = 1024 (log2 scale)</text>' "$T/s.svg"
check "the plot's x axis is the file count, in one pair of brackets" $?
n_marks=$(grep -c 'knee: [0-9k]* files' "$T/s.svg")
[ "${n_knees:-x}" = "$n_marks" ]
check "the plot rings each knee ($n_knees in the record, $n_marks on the plot)" $?

# The whole record follows doc/schema.json's sweep_record, and the check
# can fail: without files_knees, or with a knee at 0 files, it does not.
python3 tests/schema.py doc/schema.json -d sweep_record "$T/s.json"
rc=$?
if [ $rc -eq 2 ]; then
	skip "python3 jsonschema is not installed"
	skip "python3 jsonschema is not installed"
	skip "python3 jsonschema is not installed"
elif command -v jq >/dev/null 2>&1; then
	check "the record matches doc/schema.json's sweep_record" $rc
	jq 'del(.files_knees)' "$T/s.json" >"$T/x.json"
	python3 tests/schema.py doc/schema.json -d sweep_record "$T/x.json" >/dev/null
	r1=$?
	jq '.files_knees = [{"phase": "create", "jobs": 1, "files": 0,
	    "to_files": 2048, "pct": 40, "before": 2, "after": 1,
	    "confirmed_by": 0, "single_run": false, "text": "x"}]' "$T/s.json" >"$T/x.json"
	python3 tests/schema.py doc/schema.json -d sweep_record "$T/x.json" >/dev/null
	r2=$?
	[ $r1 -eq 1 ] && [ $r2 -eq 1 ]
	check "a record without files_knees, or with a knee at 0 files, does not" $?
	# A concurrency knee of a file creation phase is at a file count,
	# with no file size or chunk.
	jq '.concurrency_knees = [{"phase": "create", "files": 1024,
	    "jobs": 2, "gain_beyond_pct": 3, "single_run": false, "text": "x"}]' "$T/s.json" \
	    >"$T/x.json"
	python3 tests/schema.py doc/schema.json -d sweep_record "$T/x.json" >/dev/null
	r1=$?
	jq '.concurrency_knees = [{"phase": "create", "files": 1024,
	    "size_bytes": 67108864, "chunk": 4096, "jobs": 2,
	    "gain_beyond_pct": 3, "single_run": false, "text": "x"}]' "$T/s.json" >"$T/x.json"
	python3 tests/schema.py doc/schema.json -d sweep_record "$T/x.json" >/dev/null
	r2=$?
	[ $r1 -eq 0 ] && [ $r2 -eq 1 ]
	check "a concurrency knee at a file count fits the schema, with a size too it does not" $?
else
	check "the record matches doc/schema.json's sweep_record" $rc
	skip "jq is not installed"
	skip "jq is not installed"
fi

# report redraws the sweep from its record, byte for byte.
cp "$T/out" "$T/s.txt"
"$BONNIE" report "$T/s.json" >"$T/out" 2>"$T/err" && cmp -s "$T/out" "$T/s.txt"
check "report of the record prints the same tables and knees" $?
"$BONNIE" report -o svg "$T/s.json" >"$T/out" 2>"$T/err" &&
    cmp -s "$T/out" "$T/s.svg"
check "report -o svg of the record draws the same plot" $?

# --chunks with --files: the one size the files' data is written in
# (strace: 1024 files of 32 KiB, each in two writes of 16 KiB).
if command -v strace >/dev/null 2>&1 && command -v jq >/dev/null 2>&1; then
	env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	    strace -f --seccomp-bpf -qq -o "$T/st" -e trace=write "$BONNIE" sweep --min-time 0 -q \
	    -d "$T/d" --files 1:32k:32k --chunks 16k -p create \
	    --json "$T/c.json" >/dev/null 2>"$T/err"
	st=$?
	n=$(grep -c ', 16384) *= 16384$' "$T/st")
	[ $st -eq 0 ] && [ "$n" -eq 2048 ] &&
	    jq -e '.sweep.chunks == [16384] and .points[0].chunk == 16384' \
	    "$T/c.json" >/dev/null
	check "--files with --chunks 16k writes the files in 16 KiB (exit $st, $n writes)" $?
else
	skip "strace or jq is not installed"
fi

# Bad values: exit 2, one line naming the command and the option, nothing
# made.
mkdir "$T/bad"
bad() {
	want=$1; shift
	"$BONNIE" sweep --min-time 0 -d "$T/bad" --json "$T/bad/x.json" "$@" \
	    >"$T/out" 2>"$T/err"
	status=$?
	lines=$(wc -l <"$T/err" | tr -d ' ')
	[ $status -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$T/out" ] &&
	    grep -q '^bonnie-ng: sweep: ' "$T/err" &&
	    grep -q -- "$want" "$T/err" && [ -z "$(ls -A "$T/bad")" ]
	check "bad: $* (exit $status: $(cat "$T/err"))" $?
}
bad "invalid value for --files: '0'" --files 0
bad "invalid value for --files: 'x'" --files 1,x
bad "invalid value for --files" --files 1:1k:4k
bad "runs only the file creation phases, and -p chose write" --files 1,2 -p write,create
# The file creation phases alone (--files, or -p choosing only them) take
# no --sizes, and --chunks only as one size for files with data.
alone="a sweep of the file creation phases alone"
bad "sweep: --sizes does not apply to $alone: they make no test file$" \
    --files 1,2 --sizes 1m..2m
bad "sweep: --sizes does not apply to $alone" --sizes 1m --files 1
bad "sweep: --sizes does not apply to $alone" -p create,stat --sizes 1m..2m
bad "sweep: --chunks takes one chunk size in $alone (.*), not 2$" \
    --files 1,2:4k --chunks 4k,16k
bad "sweep: --chunks does not apply to empty files" --files 1,2 --chunks 16k
bad "sweep: --chunks does not apply to empty files" -p create --chunks 16k
[ -n "$T_MOUNTS" ] && scratch_umount "$T/d"
done_testing
