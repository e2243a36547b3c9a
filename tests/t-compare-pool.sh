#!/bin/sh
# compare's pooled sides and honest verdicts: A1 A2 --vs B1 B2 pools each
# side's runs and gives the verdicts, medians and intervals that one file
# holding all of a side's runs gives; the settings that must match are
# checked within a side too; --vs misused is refused (exit 2); --strict
# makes a selected column the runs could not tell exit 3, and without it
# exit 0 with the result line naming it; the JSON's exit, verdicts and
# run counts say the same.
# run.sh: suites: plain sanitized: compare's pooling over fixture records, which
#   reach no call of the platform layer; how musl reads and prints numbers
#   is t-exact's
. tests/lib.sh
scratch
F=tests/fixtures

# One file holding the runs of two: the base's and the noise's.
jq -s '.[0].runs += .[1].runs | .[0]' $F/ng-base.json $F/ng-noise.json \
    >"$T/base-all.json"
jq -s '.[0].runs += .[1].runs | .[0]' $F/ng-slower.json $F/ng-faster.json \
    >"$T/new-all.json"
# Each run a file of its own.
for i in 0 1 2 3 4; do
	jq ".runs = [.runs[$i]]" $F/ng-base.json >"$T/b$i.json"
	jq ".runs = [.runs[$i]]" $F/ng-noise.json >"$T/n$i.json"
	jq ".runs = [.runs[$i]]" $F/ng-slower.json >"$T/s$i.json"
	jq ".runs = [.runs[$i]]" $F/ng-faster.json >"$T/f$i.json"
done

# What the verdicts say, column by column, without the file names.
cells() {
	jq -c '[.columns[] | [.name, .base, .new[0].value,
	    .new[0].verdict, .new[0].change_low_pct, .new[0].change_high_pct,
	    .new[0].base_runs, .new[0].new_runs]], .exit' "$1"
}

run compare -o json "$T/base-all.json" "$T/new-all.json"
s1=$status
cells "$T/out" >"$T/one"
run compare -o json $F/ng-base.json $F/ng-noise.json --vs $F/ng-slower.json \
    $F/ng-faster.json
s2=$status
cells "$T/out" >"$T/pooled"
[ -s "$T/one" ] && cmp -s "$T/one" "$T/pooled" && [ $s1 -eq $s2 ]
check "two files a side pooled: every column's medians, verdict, interval and runs as one file holding them ($s1 $s2)" $? ||
    diag "$(diff "$T/one" "$T/pooled")"
run compare -o json "$T"/b?.json "$T"/n?.json --vs "$T"/s?.json "$T"/f?.json
cells "$T/out" >"$T/split"
cmp -s "$T/one" "$T/split"
check "ten single-run files a side pooled: the same" $? ||
    diag "$(diff "$T/one" "$T/split")"
jq -e '.columns[] | select(.name == "write") | .new[0].base_runs == 10 and
    .new[0].new_runs == 10' "$T/out" >/dev/null
check "base_runs and new_runs count the pooled runs (10, 10)" $?
jq -e '.base.file | test("b0.json, .*b1.json, .*n4.json$")' "$T/out" \
    >/dev/null
check "a pooled side is named by its files, in order" $?

# The text says the same, and without --vs three files are three sides.
run compare $F/ng-base.json $F/ng-noise.json --vs $F/ng-slower.json
grep -Eq '^write +K/sec +[0-9]+ .* worse +MW ' "$T/out" &&
    grep -q '^base: .*ng-base.json, .*ng-noise.json (bonnie-ng JSON, 10 runs)$' "$T/out"
check "text: the pooled base, 10 runs, write worse" $?
run compare -o json $F/ng-base.json $F/ng-noise.json $F/ng-slower.json
jq -e '(.new | length) == 2' "$T/out" >/dev/null
check "without --vs: base and two new sides, as before" $?

# Within a side, the settings that must match are checked.
run compare $F/ng-base.json $F/ng-other-size.json --vs $F/ng-slower.json
[ $status -eq 2 ] && grep -q 'ng-other-size.json cannot be pooled with .*ng-base.json (file size 64M vs 128M' "$T/err"
check "a side of two sizes: refused, exit 2, naming the setting ($status)" $? ||
    diag "$(cat "$T/err")"

# --vs misused.
run compare $F/ng-base.json --vs $F/ng-slower.json --vs $F/ng-noise.json
[ $status -eq 2 ] && grep -q 'given twice' "$T/err"
check "--vs twice: exit 2" $?
run compare --vs $F/ng-base.json $F/ng-slower.json
[ $status -eq 2 ] && grep -q 'needs files on both sides' "$T/err"
check "--vs with nothing before it: exit 2" $?
run compare $F/ng-base.json $F/ng-slower.json --vs
[ $status -eq 2 ]
check "--vs with nothing after it: exit 2" $?
run compare -o json $F/ng-base.json --vs -- --vs
[ $status -eq 2 ] && grep -q -- '--vs: No such file' "$T/err"
check "after --, a file named --vs is a file" $?

# Honest verdicts: spread runs cannot tell a 5% change from none.
jq '.runs |= [range(length) as $i | .[$i] |
    .phases.write.rate *= (0.95 + ($i % 3) * 0.2)]' $F/ng-base.json >"$T/wide.json"
run compare -F write $F/ng-base.json "$T/wide.json"
[ $status -eq 0 ] && grep -Eq '^write .* inconclusive ' "$T/out" &&
    grep -q '^result: ok (.*could not tell: write)$' "$T/out"
check "a spread new side: write inconclusive, exit 0, the result line says so" $? ||
    diag "$(grep -E '^(write|result)' "$T/out")"
run compare --strict -F write $F/ng-base.json "$T/wide.json"
[ $status -eq 3 ] && grep -q '^result: inconclusive (.*could not tell: write)$' "$T/out"
check "--strict: exit 3, the result inconclusive" $?
run compare --strict -o json -F write $F/ng-base.json "$T/wide.json"
[ $status -eq 3 ] && jq -e '.exit == 3' "$T/out" >/dev/null
check "--strict -o json: exit 3 in the document too" $?
run compare --strict -o junit -F write $F/ng-base.json "$T/wide.json"
[ $status -eq 3 ] && grep -q '<failure' "$T/out"
check "--strict -o junit: the untold column fails" $?
run compare --strict $F/ng-base.json $F/ng-slower.json
[ $status -eq 1 ]
check "--strict with a worse column: exit 1 still" $?
done_testing
