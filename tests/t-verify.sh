#!/bin/sh
# --verify: every kind of bad data a read can bring back, in every reading
# phase and both seeker modes, from the fault library (tests/fault/inject.c):
# flipped bits, zeroes and another offset's bytes on the way back from
# read/pread/getc, and writes that report success without writing (a hole)
# or write elsewhere (misdirected).  Each must be found with the right
# diagnosis and count, on stderr and in the record, the row still printed,
# exit 1 and no file left; --verify=fatal stops at the first; a clean run
# finds nothing, and a run without --verify checks nothing.
. tests/lib.sh
. tests/fault/lib.sh
scratch
chmod 755 "$T"

need_inject
json_probe "$T"
if [ $JSON -eq 0 ]; then
	skip "jq missing or --json not in this build"
	done_testing; exit
fi

C=4096
ARGS="-d $T -q -c 4k -z 42 --cache=keep --no-space-check --verify"
BIG="$ARGS -s 1m"		# 256 chunks
SMALL="$ARGS -s 64k -n 2000"	# 16 chunks, each read many times

# words KIND: what the stderr line says for a diagnosis.
words() {
	case $1 in
	differs) echo "corruption" ;;
	zero) echo "a hole or a lost write" ;;
	misplaced) echo "a misdirected write" ;;
	stale) echo "a lost or stale write" ;;
	esac
}

# vcell DESC SPEC PHASE KIND JQ ARGS...: the fault SPEC makes phase PHASE
# find bad data whose first diagnosis is KIND; JQ is a further condition
# on the phase's verify object (bad_chunks, diagnoses, bad[]).
vcell() {
	desc=$1 spec=$2 phase=$3 kind=$4 cond=$5
	shift 5
	rm -f "$T/r.json" "$T/fault.log"
	bn_fault "$spec" "$T/out" "$T/err" "$@" --json "$T/r.json"
	check "$desc: exit 1" $([ $st -eq 1 ]; echo $?)
	grep -q "^bonnie-ng: phase $phase: bad data at byte [0-9]* ([0-9]* bytes[^)]*): .*$(words "$kind")\$" "$T/err"
	r=$?
	check "$desc: stderr describes it ($kind)" $r
	[ $r -eq 0 ] || sed 's/^/#   /' "$T/err"
	check "$desc: the row is still printed" \
	    $(grep -q "^$(echo "$TAG" | cut -c1-8) " "$T/out"; echo $?)
	jq -e ".runs[0].error == null and
	    (.runs[0].phases.$phase.verify | .bad[0].diagnosis == \"$kind\" and
	    .bad_chunks == (.diagnoses | add) and ($cond))" "$T/r.json" \
	    >/dev/null 2>&1
	r=$?
	check "$desc: the record counts it ($cond)" $r
	[ $r -eq 0 ] && [ -s "$T/r.json" ] ||
	    jq -c ".runs[0].phases.$phase.verify | del(.bad[1:]) " \
	    "$T/r.json" 2>&1 | sed 's/^/#   /'
	check "$desc: no test file left" $(no_test_files "$T"; echo $?)
	check "$desc: no process left" $(no_procs; echo $?)
}

# Block read.
vcell "read flip" read:10:flip read differs \
    ".bad_chunks == 1 and .bad[0].offset == $((9 * C)) and .bad[0].first_bad_byte == $((9 * C + C / 2)) and .bad[0].bad_bytes == 1" \
    $BIG -p write,read
# The shim flips the lowest bit of the middle byte: the line names the
# byte, what came back, and bit 0.
grep -q "byte $((9 * C + C / 2)) is 0x[0-9a-f]* where the expected data (generation 1, write) has 0x[0-9a-f]*: bit 0 flipped: corruption" "$T/err"
check "read flip: the value read and the flipped bit are named" $?
jq -e '.runs[0].phases.read.verify.bad[0] |
    ([.byte_read, .byte_due] | map(type)) == ["number", "number"] and
    (.byte_read - .byte_due | fabs) == 1 and .torn == false' "$T/r.json" \
    >/dev/null
check "read flip: the record holds the two values, one bit apart" $?
vcell "read zero" read:20:zero read zero \
    ".bad_chunks == 1 and .bad[0].offset == $((19 * C))" $BIG -p write,read
vcell "read other offset" read:30:other=-8192 read misplaced \
    ".bad_chunks == 1 and .bad[0].found_offset == $((27 * C)) and .bad[0].found_writer == \"write\"" \
    $BIG -p write,read
vcell "read after a lost write" write:40:hole read zero \
    ".bad_chunks == 1 and .bad[0].offset == $((39 * C))" $BIG -p write,read
vcell "read after a misdirected write" write:50:misdirect=-16384 read misplaced \
    ".bad_chunks == 2 and .diagnoses.misplaced == 1 and .diagnoses.zero == 1 and .bad[0].offset == $((45 * C)) and .bad[0].found_offset == $((49 * C)) and .bad[1].offset == $((49 * C))" \
    $BIG -p write,read
# The rewrite's write lost: the block read finds generation 1 where
# generation 2 was due.
vcell "read after a lost rewrite" write:$((256 + 12)):hole read stale \
    ".bad_chunks == 1 and .bad[0].offset == $((11 * C)) and .bad[0].found_generation == 1 and .bad[0].want_generation == 2 and .bad[0].want_writer == \"rewrite\"" \
    $BIG -p write,rewrite,read

# A run of bad chunks is one entry in the record and one line.
vcell "read zeroes from the 10th read on" read:10+:zero read zero \
    ".bad_chunks == 247 and .diagnoses.zero == 247 and .all_listed and (.bad | length) == 1 and .bad[0].chunks == 247 and .bad[0].offset == $((9 * C)) and .bad[0].length == $((247 * C))" \
    $BIG -p write,read
check "a run is described as one: (1011712 bytes, 247 chunks)" \
    $(grep -c "bad data at byte $((9 * C)) (1011712 bytes, 247 chunks): all zeroes" "$T/err" | grep -qx 1; echo $?)

# The rewrite's reads.
vcell "rewrite flip" read:10:flip rewrite differs ".bad_chunks == 1" \
    $BIG -p write,rewrite
vcell "rewrite other offset" read:30:other=-8192 rewrite misplaced \
    ".bad_chunks == 1 and .bad[0].found_offset == $((27 * C))" \
    $BIG -p write,rewrite
vcell "rewrite after a lost write" write:40:hole rewrite zero \
    ".bad_chunks == 1" $BIG -p write,rewrite

# The per-char read, checked per buffer.
vcell "getc flip" getc:5000:flip getc differs \
    ".bad_chunks == 1 and .bad[0].offset == $C and .bad[0].first_bad_byte == 4999" \
    $BIG -p write,getc
vcell "getc zero byte" getc:9000:zero getc differs \
    ".bad_chunks == 1 and .bad[0].first_bad_byte == 8999" $BIG -p write,getc
vcell "getc after a lost write" write:40:hole getc zero ".bad_chunks == 1" \
    $BIG -p write,getc
vcell "getc after a misdirected write" write:50:misdirect=-16384 getc misplaced \
    ".bad_chunks == 2 and .bad[0].found_offset == $((49 * C))" \
    $BIG -p write,getc

# The seekers: forked ones count their faults each (2 seekers, 2 faults),
# threads share the counts.  The stale and hole cells run one seeker, so
# that no other write-back can mend the chunk before it is read again.
for mode in fork thread; do
	n=2
	[ $mode = thread ] && n=1
	S="$SMALL --seekers=$mode"
	vcell "seeks($mode) flip" pread:5:flip seeks differs \
	    ".bad_chunks == $n and .bad[0].bad_bytes == 1" $S -S 2 -p write,seeks
	vcell "seeks($mode) zero" pread:7:zero seeks zero ".bad_chunks == $n" \
	    $S -S 2 -p write,seeks
	vcell "seeks($mode) other offset" pread:9:other=8192 seeks misplaced \
	    ".bad_chunks == $n and (.bad[0].offset - .bad[0].found_offset | fabs) == 8192" \
	    $S -S 2 -p write,seeks
	vcell "seeks($mode) lost write-back" pwrite:3:hole seeks stale \
	    ".bad_chunks >= 1 and .diagnoses.stale == .bad_chunks and .bad[0].found_writer == \"write\" and .bad[0].want_generation == 3" \
	    $S -S 1 -p write,seeks
	vcell "seeks($mode) after a lost write" write:5:hole seeks zero \
	    ".bad_chunks >= 1 and .diagnoses.zero == .bad_chunks and .bad[0].offset == $((4 * C))" \
	    $S -S 1 -p write,seeks
done

# --verify=fatal: the first bad chunk stops the run like an I/O error.
for p in read seeks; do
	rm -f "$T/r.json"
	if [ $p = read ]; then
		bn_fault read:10:flip "$T/out" "$T/err" $BIG -p write,read \
		    --verify=fatal --json "$T/r.json"
	else
		bn_fault pread:5:zero "$T/out" "$T/err" $SMALL -S 2 \
		    -p write,seeks --verify=fatal --json "$T/r.json"
	fi
	check "fatal $p: exit 1" $([ $st -eq 1 ]; echo $?)
	one_line "$T/err" && grep -Eq "^bonnie-ng: phase $p: $T/bonnie-ng\.[0-9]+\.[^:/]*: data check failed at byte [0-9]+ \(4096 bytes\): .*(corruption|a hole or a lost write)( \(seeker [0-9]+\))?\$" "$T/err"
	r=$?
	check "fatal $p: one error line with the diagnosis" $r
	[ $r -eq 0 ] || sed 's/^/#   /' "$T/err"
	jq -e ".runs[0].error.phase == \"$p\" and .runs[0].phases.$p == null and .runs[0].phases.write != null" \
	    "$T/r.json" >/dev/null 2>&1
	check "fatal $p: the record has the error, not the phase" $?
	check "fatal $p: no test file left" $(no_test_files "$T"; echo $?)
	check "fatal $p: no process left" $(no_procs; echo $?)
done

# Clean runs find nothing; every reading phase is marked verified, the
# writing ones are not (they read nothing).
for mode in fork thread; do
	rm -f "$T/r.json"
	bn "$T/out" "$T/err" $BIG -n 500 --seekers=$mode --json "$T/r.json"
	check "clean $mode: exit 0" $([ $st -eq 0 ]; echo $?)
	[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
	jq -e '.options.verify == "count" and (.runs[0].phases |
	    (.rewrite.verify.bad_chunks == 0 and .getc.verify.bad_chunks == 0 and
	    .read.verify.bad_chunks == 0 and .seeks.verify.bad_chunks == 0 and
	    .read.verify.checked_bytes == 1048576 and
	    .getc.verify.checked_bytes == 1048576 and
	    .seeks.verify.checked_bytes == .seeks.ops * 4096 and
	    .write.verify == null and .putc.verify == null))' "$T/r.json" \
	    >/dev/null 2>&1
	check "clean $mode: every reading phase verified, nothing found" $?
	check "clean $mode: nothing on stderr" $([ ! -s "$T/err" ]; echo $?)
done
rm -f "$T/r.json"
bn "$T/out" "$T/err" -d "$T" -q -s 1m -c 4k --cache=keep -n 200 \
    --json "$T/r.json"
jq -e '.options.verify == "off" and
    ([.runs[0].phases[] | select(. != null) | has("verify")] | any | not)' \
    "$T/r.json" >/dev/null 2>&1
check "without --verify nothing is marked verified" $?

# A team of workers (-j): each checks its own file, and each forked
# worker's library counts its own reads, so both find the flipped bit.
rm -f "$T/j.json"
bn_fault read:10:flip "$T/out" "$T/err" $BIG -j 2 -p write,read \
    --json "$T/j.json"
check "-j 2: exit 1" $([ $st -eq 1 ]; echo $?)
check "-j 2: each worker names itself" \
    $(grep -c "^bonnie-ng: phase read (worker j[01]): bad data at byte $((9 * C)) " "$T/err" | grep -qx 2; echo $?)
jq -e '.runs[0].phases.read.verify | .bad_chunks == 2 and
    .checked_bytes == 2097152 and ([.bad[].worker] | sort) == [0, 1]' \
    "$T/j.json" >/dev/null 2>&1
check "-j 2: the record has both, with their workers" $?
bn "$T/out" "$T/err" $BIG -j 2 -n 400 --json "$T/j.json"
check "-j 2 clean: exit 0" $([ $st -eq 0 ]; echo $?)
jq -e '[.runs[0].phases[] | select(. != null) | .verify | select(. != null) |
    .bad_chunks == 0] | length == 4 and all' "$T/j.json" >/dev/null 2>&1
check "-j 2 clean: four phases verified, nothing found" $?
check "-j 2: no test file left" $(no_test_files "$T"; echo $?)

# A record with bad chunks of every kind matches doc/schema.json.
bn_fault read:10:flip,read:20:zero,read:30:other=-8192,write:300:hole \
    "$T/out" "$T/err" $BIG -p write,rewrite,read --json "$T/bad.json"
schema_ok "a record with bad chunks matches the schema" "$T/bad.json"
jq -e '[.runs[0].phases[] | select(. != null) | .verify.bad_chunks // 0] | add >= 4' \
    "$T/bad.json" >/dev/null 2>&1
check "(and it has the bad chunks)" $?

# compare: a verified run against one that was not is not comparable; two
# verified runs are.
cp "$T/r.json" "$T/plain.json"
bn "$T/out" "$T/err" $BIG -p write,read --json "$T/v1.json"
bn "$T/out" "$T/err" $BIG -p write,read --verify=fatal --json "$T/v2.json"
"$BONNIE" compare "$T/plain.json" "$T/v1.json" >"$T/cmp" 2>&1
grep -q "^warning: $T/v1.json is not comparable with $T/plain.json: .*verified reads no vs yes" "$T/cmp"
check "compare warns when one side verified and the other did not" $?
"$BONNIE" compare "$T/v1.json" "$T/v2.json" >"$T/cmp" 2>&1
! grep -q "verified" "$T/cmp"
check "compare does not warn between two verified runs" $?

done_testing
