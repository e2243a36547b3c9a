#!/bin/sh
# bonnie-ng history end to end, over records derived from one real run by
# tests/history-records.py's seeded noise model (each phase's rate, %CPU
# and worst latency times exp(N(0, 0.05)), times a factor a record's
# phases share, exp(N(0, 0.02))): a 20% step in block write at record 18
# of 30 is found in that column at 18 +- 1 and no other, with its
# interval, verdict, what moved in the kernel's account (a step in the
# write requests' size planted with it) and exit 1; thirty records with no
# step give no change point in any column in at least 19 of 20 seeded
# trials; --by kernel orders kernel releases by version and names the
# release at a change; the JSON follows doc/schema.json; the HTML page is
# well formed with a chart per column; files that are not run records
# are skipped in a directory and refused when named; a record named again
# (in its directory, twice, through a link) is read once and said so; bad
# options exit 2.
# run.sh: long: twenty histories of thirty records each
# run.sh: suites: plain sanitized: history over run records, which reach no call of
#   the platform layer (its one run is a fixture: the runs are the other
#   tests' subject there); how musl reads and prints numbers is t-exact's
. tests/lib.sh
scratch

need jq python3
GEN="python3 $BN_TOP/tests/history-records.py"

mkdir "$T/d"
"$BONNIE" -d "$T/d" -s 16m -f -q --json "$T/base.json" >/dev/null 2>"$T/err"
check "a real run for the records to derive from" $? || diag "$(cat "$T/err")"

# The planted step, with the write requests four times smaller.
$GEN "$T/base.json" "$T/h" 30 --seed 11 --step write:18:0.8 \
    --kscale write:18:wareq-sz=0.25,w/s=4
run history -o json "$T/h"
cp "$T/out" "$T/h.json"
[ $status -eq 1 ]
check "a 20% slower write in the newest segment: exit 1 ($status)" $? ||
    diag "$(cat "$T/err")"
jq -e '[.change_points[] | .column] == ["write"] and
    (.change_points[0].index - 18 | fabs) <= 1' "$T/h.json" >/dev/null
check "found in write at 18 +- 1 ($(jq -c '[.change_points[] | [.column, .index]]' "$T/h.json")), no other column" $?
jq -e '.change_points[0] | .verdict == "worse" and .change_pct < -15 and
    .change_pct > -25 and .change_low_pct < .change_pct and
    .change_high_pct > .change_pct and .p <= 0.01 and
    .before.records >= 17 and .after.records >= 11' "$T/h.json" >/dev/null
check "its change (-20% or so), interval, verdict worse, p and segments" $?
moved='^  moved: .*wareq-sz'
if jq -e '.runs[0].phases.write.kernel.disk[0]["wareq-sz"] != null' \
    "$T/base.json" >/dev/null 2>&1; then
	jq -e '[.change_points[0].kernel_moved.figures[].name] |
	    index("wareq-sz") != null' "$T/h.json" >/dev/null
	check "what moved there: wareq-sz, as planted" $? ||
	    diag "$(jq -c '.change_points[0].kernel_moved' "$T/h.json")"
else
	skip "what moved: the run had no disk in its kernel account"
	moved=.	# the text has no 'moved:' line to look for
fi
jq -e '(.records | length) == 30 and (.columns[] | select(.name ==
    "write") | (.values | length) == 30 and (.segments | length) == 2)' \
    "$T/h.json" >/dev/null
check "the series: 30 values, two segments of write" $?
schema_ok "history -o json matches doc/schema.json's history_record" \
    -d history_record "$T/h.json"
run history "$T/h"
grep -q '^write at record 1[789] ' "$T/out" &&
    grep -q "$moved" "$T/out" &&
    grep -q '^result: worse (the newest segment of write)$' "$T/out"
check "text: the change point, what moved, the result" $? ||
    diag "$(cat "$T/out")"
run history -F read "$T/h"
check "-F read: write's step does not fail the gate (exit $status)" $status
run history -o html "$T/h"
[ $status -eq 1 ] && [ "$(grep -c '<svg' "$T/out")" -eq \
    "$(jq '.columns | length' "$T/h.json")" ] &&
    grep -q 'class="cp"' "$T/out"
check "html: a chart per column, the change point marked" $?
if have xmllint; then
	xmllint --noout "$T/out" 2>"$T/xerr"
	[ ! -s "$T/xerr" ]
	check "html: well-formed XHTML" $? || diag "$(head -5 "$T/xerr")"
else
	skip "html: xmllint not installed"
fi

# No step: at most one of twenty histories has any change point.
# Seeds 101 to 120, written by one python (its start is most of its CPU).
alarms=0
$GEN "$T/base.json" "$T/n" 30 --seeds 101:20
for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	"$BONNIE" history -o json "$T/n/$((100 + seed))" >"$T/n.json" 2>/dev/null
	n=$(jq '.change_points | length' "$T/n.json")
	[ "$n" -gt 0 ] && alarms=$((alarms + 1)) &&
	    diag "seed $((100 + seed)): $(jq -c '[.change_points[] | [.column, .index, .p]]' "$T/n.json")"
done
[ $alarms -le 1 ]
check "no step: no change point in any column in $((20 - alarms)) of 20 seeded histories" $?

# By kernel: 6.1, then 6.12 (read 30% slower), then 6.9, by start; in
# version order 6.12 comes last, and the change is where it starts.
rm -rf "$T/k"
$GEN "$T/base.json" "$T/k" 30 --seed 21 --shuffle --kernel 0:6.1.0-9-amd64 \
    --kernel 10:6.12.0-1-amd64 --kernel 20:6.9.0-2-amd64 --step read:10:0.7:20
run history -o json --by kernel "$T/k"
jq -e '[.records[].kernel] | (.[0] == "6.1.0-9-amd64" and .[10] ==
    "6.9.0-2-amd64" and .[29] == "6.12.0-1-amd64")' "$T/out" >/dev/null
check "--by kernel: 6.1, 6.9, 6.12 in version order" $?
jq -e '[.change_points[] | select(.column == "read")] | length == 1 and
    (.[0].index - 20 | fabs) <= 1 and .[0].kernel == "6.12.0-1-amd64" and
    (.[0].settings | map(select(.name == "kernel")) | .[0].after) ==
    "6.12.0-1-amd64"' "$T/out" >/dev/null
check "read's change at the first 6.12 record, the release among the settings that changed" $? ||
    diag "$(jq -c '[.change_points[] | [.column, .index, .kernel, .settings]]' "$T/out")"
[ $status -eq 1 ]
check "the newest segment (6.12) is worse: exit 1" $?
run history -o json "$T/k"
jq -e '[.change_points[] | select(.column == "read") | .index] as $i |
    ($i | length) == 2' "$T/out" >/dev/null
check "by start: read's two changes, down at 6.12 and back at 6.9" $? ||
    diag "$(jq -c '[.change_points[] | [.column, .index]]' "$T/out")"

# By label, in version order: build-9 before build-10 before build-100.
mkdir "$T/l"
i=0
for l in build-100 build-9 build-10 build-9a; do
	jq --arg l "$l" '.options.label = $l' "$T/k/r0000$i.json" >"$T/l/$i.json"
	i=$((i + 1))
done
run history -o json --by label "$T/l"
[ "$(jq -c '[.records[].label]' "$T/out")" = '["build-9","build-9a","build-10","build-100"]' ]
check "--by label: in version order ($(jq -c '[.records[].label]' "$T/out"))" $?

# vm cells are run records with a guest object: read as any other.
mkdir "$T/vm"
for f in "$T"/k/r0000*.json; do
	jq '.guest = {"accel": "tcg", "vcpus": 2, "memory_bytes": 536870912}' \
	    "$f" >"$T/vm/${f##*/}"
done
run history -o json "$T/vm"
jq -e '(.records | length) == 10' "$T/out" >/dev/null
check "bonnie-ng vm cells (a guest object): read" $?

# Inputs: what a directory holds besides records is skipped, said why.
echo '{"not": "a record"}' >"$T/h/zz-other.json"
echo 'x' >"$T/h/notes.txt"
run history -o json "$T/h"
jq -e '(.records | length) == 30 and (.skipped | length) == 1 and
    (.skipped[0] | test("zz-other.json"))' "$T/out" >/dev/null
check "a directory's other JSON file: skipped, named; other files ignored" $?
# A record met twice (a file and its directory, a file named twice, once
# through a symbolic link): read once, the second listed as such.
f3=$(ls "$T"/h/*.json | sed -n 3p)
ln -s "$f3" "$T/link.json"
run history -o json "$T/h" "$f3" "$T/link.json"
jq -e --arg f "$f3" '(.records | length) == 30 and
    ([.records[] | select(.file == $f)] | length) == 1 and
    ([.skipped[] | select(test("the same file as .*: read once$"))] |
    length) == 2' "$T/out" >/dev/null
check "a record named again (its directory, a link): read once, said" $?
run history "$f3" "$f3"
[ $status -eq 0 ] && grep -q '^history: 1 record,' "$T/out" &&
    grep -qx "skipped: $f3: the same file as $f3: read once" "$T/out"
check "the same file named twice: one record, said in the text" $?
run history "$T/h/zz-other.json"
[ $status -eq 2 ] && grep -q 'zz-other.json' "$T/err"
check "the same file named: refused, exit 2" $?
run history "$T/nosuch"
[ $status -eq 2 ]
check "a missing file: exit 2" $?
mkdir "$T/empty"
run history "$T/empty"
[ $status -eq 2 ] && grep -q 'no run record' "$T/err"
check "a directory without records: exit 2" $?
run history --alpha 0 "$T/h"
[ $status -eq 2 ]
check "--alpha 0: refused" $?
run history --by size "$T/h"
[ $status -eq 2 ]
check "--by size: refused" $?
run history -F nosuch "$T/h"
[ $status -eq 2 ]
check "-F nosuch: refused" $?
done_testing
