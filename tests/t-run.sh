#!/bin/sh
# The runner itself (tests/run.sh): a name that is no test is refused in
# one line with exit 2, before anything runs (a typo must not pass as
# "0 passed, 0 failed"); each test ends with "N of M", the runner's
# progress; a test that fails makes the run fail.
. tests/lib.sh
scratch

mkdir -p "$T/tree/tests"
cp tests/run.sh tests/lib.sh tests/machine.sh "$T/tree/tests/"
for n in one two; do
	cat >"$T/tree/tests/t-$n.sh" <<'EOF2'
. tests/lib.sh
ok "fine" true
done_testing
EOF2
done
cat >"$T/tree/tests/t-bad.sh" <<'EOF2'
. tests/lib.sh
ok "not fine" false
done_testing
EOF2

(cd "$T/tree" && sh tests/run.sh -j 1 . t-one t-nosuch) >"$T/out" 2>"$T/err"
st=$?
check "an unknown test name: exit 2 ($st)" $([ $st -eq 2 ]; echo $?)
check "one line, naming it" $([ "$(wc -l <"$T/err")" -eq 1 ] &&
    grep -q "no test 't-nosuch'" "$T/err"; echo $?) || cat "$T/err"
check "and nothing ran" $([ ! -s "$T/out" ]; echo $?) || cat "$T/out"

(cd "$T/tree" && sh tests/run.sh -j 2 . t-one t-two.sh) >"$T/out" 2>&1
st=$?
check "two tests: exit 0 ($st)" $([ $st -eq 0 ]; echo $?) || cat "$T/out"
check "each ends with its place: 1 of 2, 2 of 2" \
    $(grep -q '^# t-[a-z]*\.sh (1 of 2)$' "$T/out" &&
	grep -q '^# t-[a-z]*\.sh (2 of 2)$' "$T/out" &&
	grep -q '^2 passed, 0 failed, 0 skipped$' "$T/out"; echo $?) ||
    cat "$T/out"

(cd "$T/tree" && sh tests/run.sh -j 1 . t-bad) >"$T/out" 2>&1
st=$?
check "a failing test fails the run ($st)" $([ $st -ne 0 ] &&
    grep -q '^0 passed, 1 failed' "$T/out"; echo $?) || cat "$T/out"
done_testing
