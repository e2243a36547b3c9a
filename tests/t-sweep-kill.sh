#!/bin/sh
# bonnie-ng sweep keeps what it measured when it is killed by a signal it
# cannot catch: the --json record and the --svg plot are replaced whole
# after every point, so SIGKILL in the middle of a point leaves a record
# that validates, holds the points finished and says "unfinished", a
# well-formed plot, and no temporary file.  And an open top (--sizes LO)
# is said, with what it is, before the first point.
. tests/lib.sh
. tests/fault/lib.sh
scratch

need_inject jq

# Each point of write,read opens its test file three times (made, opened
# for reading twice): the 4th open is the first of point 2, held there
# for up to 10 minutes while the test kills the sweep.
mkdir "$T/d"
BN_FAULT=open:4:sleep=600000000 BN_FAULT_LOG=$T/fault.log LD_PRELOAD=$INJECT \
    "$BONNIE" sweep -m "$TAG" -d "$T/d" --sizes 1m..8m --chunks 4k \
    --phases write,read --json "$T/s.json" --svg "$T/s.svg" \
    >"$T/out" 2>"$T/err" </dev/null &
pid=$!
# Wait until the sweep sleeps in point 2's first open (the injector logs
# the fault before it sleeps): point 1's record and plot are written by
# then.
i=0
while [ $i -lt 1200 ]; do
	grep -q '^fault .*kind=open' "$T/fault.log" 2>/dev/null && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
	i=$((i + 1))
done
n=$(jq '.points | length' "$T/s.json" 2>/dev/null)
kill -KILL $pid
wait $pid
status=$?
[ $status -eq 137 ]
check "the sweep was killed in point 2 (exit $status, $n point)" $?
diag "$(cat "$T/err")"

schema_ok "the killed sweep's record matches doc/schema.json" -d sweep_record "$T/s.json"
jq -e '.stopped == "unfinished" and (.points | length) == 1 and
    .points[0].size_bytes == 1048576 and .points[0].phases.write.rate > 0 and
    .points[0].phases.read.rate > 0 and .sweep.sizes == [1048576, 2097152,
    4194304, 8388608]' "$T/s.json" >/dev/null
check "the record holds the finished point and says unfinished" $?
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$T/s.svg"
	check "the killed sweep's SVG is well-formed" $?
else
	skip "xmllint is not installed"
fi
[ -z "$(find "$T" -name '.s.*')" ]
check "no temporary file left beside the outputs" $?
# SIGKILL leaves the test file of point 2: the sweep could not remove it.
rm -f "$T"/d/bonnie-ng.*

# A sweep that ends replaces the unfinished record with the whole one.
"$BONNIE" sweep --min-time 0 -d "$T/d" -q --sizes 1m..2m --chunks 4k --phases write \
    --json "$T/s.json" >/dev/null 2>&1
jq -e '.stopped == null and (.points | length) == 2' "$T/s.json" >/dev/null
check "a finished sweep's record: stopped null, every point" $?

# The file is replaced, not written in place: its inode changes.  Held
# open here, the old inode stays in use, so that the file system cannot
# give its number to the new file (ext4 did, once in a .ci/run; a hard
# link would not do: the sweep refuses to replace a file with two).
exec 4<"$T/s.json"
ino1=$(ls -i "$T/s.json" | awk '{print $1}')
"$BONNIE" sweep --min-time 0 -d "$T/d" -q --sizes 1m..1m --chunks 4k --phases write \
    --json "$T/s.json" >/dev/null 2>&1
ino2=$(ls -i "$T/s.json" | awk '{print $1}')
exec 4<&-
[ -n "$ino1" ] && [ "$ino1" != "$ino2" ] &&
    jq -e '(.points | length) == 1' "$T/s.json" >/dev/null
check "the record is renamed into place ($ino1 then $ino2)" $?

# An open top, said before the plan, even with -q; and to what.
"$BONNIE" sweep --min-time 0 -d "$T/d" -q --sizes 1m --ram 1m --chunks 4k \
    --phases write --json "$T/o.json" >/dev/null 2>"$T/err"
[ $? -eq 0 ] && [ "$(sed -n 1p "$T/err")" = "bonnie-ng: sweep: sizes up to 2 MiB, twice RAM (give --sizes LO..HI to choose the top)" ] &&
    jq -e '.sweep.sizes == [1048576, 2097152]' "$T/o.json" >/dev/null
check "--sizes LO: the top is said, twice RAM ($(head -n 1 "$T/err"))" $?
"$BONNIE" sweep --min-time 0 -d "$T/d" -q --sizes 4m --ram 1m --chunks 4k \
    --phases write --json "$T/o2.json" >"$T/out" 2>"$T/err"
st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -e "$T/o2.json" ] &&
    grep -q "^bonnie-ng: sweep: invalid value for --sizes: '4m' (4 MiB is above twice RAM, 2 MiB" "$T/err"
check "--sizes LO above twice RAM: one line, exit 2, nothing made ($st)" $?
"$BONNIE" sweep --min-time 0 -d "$T/d" -q --sizes 1m..2m --chunks 4k --phases write \
    >/dev/null 2>"$T/err"
! grep -q 'sizes up to' "$T/err"
check "--sizes LO..HI: no line about the top" $?

done_testing
