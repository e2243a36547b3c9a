#!/bin/sh
# The runner itself (tests/run.sh): a name that is no test is refused in
# one line with exit 2, before anything runs (a typo must not pass as
# "0 passed, 0 failed"); each test ends with "N of M", the runner's
# progress; a test that fails makes the run fail.  A test's suites are
# said once, in its "# run.sh: suites:" line, which the runner obeys and
# checks (a name that is no suite: exit 2 before anything runs); no test
# skips a whole suite by itself, and no alone test is in the sanitized
# suite.
# run.sh: suites: plain: the runner and the tests' lines, which no build
#   changes
. tests/lib.sh
scratch

mkdir -p "$T/tree/tests"
cp tests/run.sh tests/lib.sh tests/machine.sh tests/machine-guard.sh "$T/tree/tests/"
for n in one two; do
	cat >"$T/tree/tests/t-$n.sh" <<'EOF2'
. tests/lib.sh
ok "fine" true
done_testing
EOF2
done
# t-two runs in the plain and portable suites only: its line, written
# with printf (a line of this file that starts "# run.sh:" would be read
# as this test's own).
printf '%s\n' '# run.sh: suites: plain portable: here for the test' \
    "$(cat "$T/tree/tests/t-two.sh")" >"$T/tree/tests/t-two.sh.new" &&
    mv "$T/tree/tests/t-two.sh.new" "$T/tree/tests/t-two.sh"
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
# A test's suites: in another suite, one skipped line with its reason
# (in its own, above, it ran).
(cd "$T/tree" && BONNIE_NG_SANITIZED=1 sh tests/run.sh -j 1 . t-one t-two) \
    >"$T/out" 2>&1
st=$?
check "a test of other suites: skipped, saying why, exit 0 ($st)" \
    $([ $st -eq 0 ] && grep -qx '# t-two.sh: skipped: not in the sanitized suite: here for the test' "$T/out" &&
	grep -q '^1 passed, 0 failed, 1 skipped$' "$T/out"; echo $?) ||
    cat "$T/out"
printf '%s\n' '# run.sh: suites: plain asan: a suite that is none' \
    '. tests/lib.sh' 'ok "fine" true' done_testing >"$T/tree/tests/t-typo.sh"
(cd "$T/tree" && sh tests/run.sh -j 1 . t-one) >"$T/out" 2>"$T/err"
st=$?
check "a suite that is none: exit 2, one line naming it, nothing run ($st)" \
    $([ $st -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	grep -q "t-typo.sh: no suite 'asan'" "$T/err" && [ ! -s "$T/out" ]
    echo $?) || cat "$T/err" "$T/out"

# The tree's own tests.  None decides a whole suite for itself: no "if" on
# the portable or sanitized build that, before any check of the test's,
# only skips and exits (its "# run.sh: suites:" line says it instead).
awk 'FNR == 1 { checked = 0; inif = 0 }
    inif == 0 && /^[ \t]*(ok|check) / { checked = 1 }
    /^if / && /portable|BONNIE_NG_SANITIZED/ { inif = 1; only = 1; ex = 0; next }
    inif && /^fi/ { if (ex && only && !checked) print FILENAME; inif = 0; next }
    inif { if ($0 ~ /^\t(exit|done_testing)/) ex = 1
	else if ($0 !~ /^\t(skip |for .*skip)/) only = 0 }' tests/t-*.sh \
    >"$T/self"
check "no test skips a whole suite by itself" $([ ! -s "$T/self" ]; echo $?) ||
    diag "say it in a '# run.sh: suites:' line: $(cat "$T/self")"
# Every suites line names suites and a reason, once a test; no alone test
# is in the sanitized suite (nor, without a line, in all three).
bad=$(awk 'function end_file(  s, i, k, j, ws) {
	if (file == "")
		return
	if (alone && n == 0)
		bad = bad " " file "(alone, every suite)"
	if (n > 1)
		bad = bad " " file "(two lines)"
	if (n == 0)
		return
	s = line
	sub(/^# run\.sh: suites: */, "", s)
	i = index(s, ":")
	if (i == 0 || substr(s, i + 1) !~ /[^ ]/)
		bad = bad " " file "(no reason)"
	k = split(substr(s, 1, i - 1), ws, " ")
	if (k == 0)
		bad = bad " " file "(no suite)"
	for (j = 1; j <= k; j++) {
		if (ws[j] !~ /^(plain|sanitized|portable)$/)
			bad = bad " " file "(" ws[j] ")"
		if (alone && ws[j] == "sanitized")
			bad = bad " " file "(alone, sanitized)"
	}
    }
    FNR == 1 { end_file(); file = FILENAME; sub(/.*\//, "", file)
	n = 0; alone = 0; line = "" }
    /^# run\.sh: suites:/ { if (n++ == 0) line = $0 }
    /^# run\.sh: alone:/ { alone = 1 }
    END { end_file(); print bad }' tests/t-*.sh)
check "every suites line names suites (plain, sanitized, portable) and a reason; no alone test is sanitized" \
    $([ -z "$bad" ]; echo $?) || diag "$bad"
done_testing
