#!/bin/sh
# compare's outputs for CI: -o junit is JUnit XML that xmllint validates
# against tests/junit.xsd (the shape of Jenkins xUnit's junit-10.xsd), that
# GitLab's reader's rules read (tests/junit-gitlab.py), with a test case per
# compared column and a failure for each --fail-on column that got worse
# (its change and method in the message), in agreement with -o json, and an
# error test case when the inputs cannot be used (exit 2); -o markdown is a
# Markdown table with a row per column and the text's cv and flags, whose
# notes stay out of the table when a GFM renderer (marked) draws it; -o
# json validates against doc/schema.json's compare_record.
# run.sh: suites: plain sanitized: the outputs as other programs read them
#   (xmllint, GitLab's rules, marked); no platform call of its own
. tests/lib.sh
scratch

F=tests/fixtures
XSD=tests/junit.xsd

"$BONNIE" compare -o junit $F/ng-base.json $F/ng-slower.json >"$T/j.xml" \
    2>"$T/err"
check "junit: a worse selected column exits 1" "$([ $? -eq 1 ]; echo $?)"
ok "junit: nothing on standard error" test ! -s "$T/err"
"$BONNIE" compare -o json $F/ng-base.json $F/ng-slower.json >"$T/j.json"

if command -v xmllint >/dev/null 2>&1; then
	ok "junit: the schema refuses a suite without its counts" sh -c "
	    sed 's/ tests=\"[0-9]*\" failures/ failures/' '$T/j.xml' |
	    xmllint --noout --schema $XSD - 2>/dev/null; [ \$? -ne 0 ]"
	xmllint --noout --schema $XSD "$T/j.xml" 2>"$T/lint"
	st=$?
	[ $st -eq 0 ] || diag "$(cat "$T/lint")"
	check "junit: valid against the JUnit schema" $st
	n=$(xmllint --xpath 'count(//testcase)' "$T/j.xml")
	cols=$(jq '.columns | length' "$T/j.json" 2>/dev/null)
	check "junit: one test case per compared column ($n, json $cols)" \
	    "$([ -n "$cols" ] && [ "$n" = "$cols" ]; echo $?)"
	fails=$(xmllint --xpath '//testcase[failure]/@name' "$T/j.xml" |
	    sed 's/ name="\([^"]*\)"/\1 /g; s/ $//')
	want=$(jq -r '[.columns[] | select(.fail_on and .new[0].verdict ==
	    "worse") | .name] | join(" ")' "$T/j.json" 2>/dev/null)
	check "junit: the failures are json's worse selected columns ($fails)" \
	    "$([ -n "$want" ] && [ "$fails" = "$want" ]; echo $?)"
	msg=$(xmllint --xpath 'string(//testcase[@name="write"]/failure/@message)' "$T/j.xml")
	diag "$msg"
	ok "junit: the message has the change and the method" sh -c "
	    echo '$msg' | grep -q -- '-20.0%' && echo '$msg' | grep -q 'MW -22.4..-17.5%'"
	ok "junit: the counts add up" sh -c "
	    [ \"\$(xmllint --xpath 'string(/testsuites/@failures)' '$T/j.xml')\" = 1 ] &&
	    [ \"\$(xmllint --xpath 'string(/testsuites/testsuite/@tests)' '$T/j.xml')\" = $n ]"

	# --fail-on none of the worse columns: no failure, exit 0.
	"$BONNIE" compare -o junit --fail-on read,rewrite $F/ng-base.json \
	    $F/ng-slower.json >"$T/k.xml"
	check "junit: --fail-on read,rewrite exits 0" "$([ $? -eq 0 ]; echo $?)"
	ok "junit: and has no failure" sh -c "
	    xmllint --noout --schema $XSD '$T/k.xml' 2>/dev/null &&
	    [ \"\$(xmllint --xpath 'count(//failure)' '$T/k.xml')\" = 0 ]"

	# The slower write at the same %CPU costs more CPU per GiB: worse.
	"$BONNIE" compare -o junit --fail-on cpu $F/ng-base.json \
	    $F/ng-slower.json >"$T/c.xml"
	check "junit: --fail-on cpu exits 1 (write's CPU per GiB rose)" \
	    "$([ $? -eq 1 ]; echo $?)"
	ok "junit: the failure is write_cpu" sh -c "
	    [ \"\$(xmllint --xpath 'count(//failure)' '$T/c.xml')\" = 1 ] &&
	    xmllint --xpath '//testcase[failure]/@name' '$T/c.xml' | grep -q write_cpu"

	# Names XML must escape, and two new sets: a suite each.
	cp $F/ng-slower.json "$T/a&b<\"c\">.json"
	"$BONNIE" compare -o junit $F/ng-base.json "$T/a&b<\"c\">.json" \
	    $F/ng-faster.json >"$T/m.xml"
	ok "junit: escaped names and two suites validate" sh -c "
	    xmllint --noout --schema $XSD '$T/m.xml' 2>/dev/null &&
	    [ \"\$(xmllint --xpath 'count(//testsuite)' '$T/m.xml')\" = 2 ]"

	# A selected column the new result lacks fails as "missing".
	if command -v jq >/dev/null 2>&1; then
		jq 'del(.runs[].phases.read)' $F/ng-slower.json >"$T/noread.json"
		"$BONNIE" compare -o junit $F/ng-base.json "$T/noread.json" \
		    >"$T/n.xml"
		ok "junit: a missing selected column is a failure of type missing" sh -c "
		    xmllint --noout --schema $XSD '$T/n.xml' 2>/dev/null &&
		    [ \"\$(xmllint --xpath 'string(//testcase[@name=\"read\"]/failure/@type)' '$T/n.xml')\" = missing ]"
	else
		skip "jq is not installed"
	fi
else
	for i in 1 2 3 4 5 6 7 8 9 10; do skip "xmllint is not installed"; done
fi

# No skipped on <testsuites>: Jenkins xUnit's junit-10.xsd refuses it.
ok "junit: no skipped attribute on <testsuites>" sh -c "
    grep '<testsuites ' '$T/j.xml' | grep -qv ' skipped='"
if command -v xmllint >/dev/null 2>&1; then
	ok "junit: the schema refuses skipped on <testsuites>, as junit-10.xsd" sh -c "
	    sed 's/<testsuites /<testsuites skipped=\"0\" /' '$T/j.xml' |
	    xmllint --noout --schema $XSD - 2>/dev/null; [ \$? -ne 0 ]"
else
	skip "xmllint is not installed"
fi
# GitLab's reader: one test per column, the failures json's worse ones.
if command -v python3 >/dev/null 2>&1; then
	python3 tests/junit-gitlab.py "$T/j.xml" >"$T/gl" 2>&1
	st=$?
	[ $st -eq 0 ] || diag "$(cat "$T/gl")"
	check "junit: GitLab's reader reads every test case" \
	    $([ $st -eq 0 ] && [ "$(wc -l <"$T/gl")" = \
	    "$(jq '.columns | length' "$T/j.json")" ]; echo $?)
	check "junit: GitLab's reader: write failed, the rest passed" \
	    $([ "$(grep -v '^success ' "$T/gl")" = \
	    "failed bonnie-ng.compare write" ]; echo $?)
else
	skip "python3 is not installed"
	skip "python3 is not installed"
fi
# An unusable input (exit 2): the error on stderr and an error test case,
# not an empty report.
"$BONNIE" compare -o junit $F/ng-base.json $F/bad-syntax.json >"$T/e.xml" \
    2>"$T/e.err"
st=$?
check "junit: an unusable input exits 2 with one line on stderr" \
    $([ $st -eq 2 ] && [ "$(wc -l <"$T/e.err")" -eq 1 ]; echo $?)
if command -v xmllint >/dev/null 2>&1; then
	ok "junit: and writes a valid report with one error test case" sh -c "
	    xmllint --noout --schema $XSD '$T/e.xml' 2>/dev/null &&
	    [ \"\$(xmllint --xpath 'count(//testcase/error)' '$T/e.xml')\" = 1 ] &&
	    [ \"\$(xmllint --xpath 'string(/testsuites/@errors)' '$T/e.xml')\" = 1 ] &&
	    xmllint --xpath 'string(//error/@message)' '$T/e.xml' | grep -q 'bad-syntax.json'"
else
	skip "xmllint is not installed"
fi
if command -v python3 >/dev/null 2>&1; then
	ok "junit: GitLab's reader shows the error" sh -c "
	    [ \"\$(python3 tests/junit-gitlab.py '$T/e.xml')\" = 'error bonnie-ng.compare inputs' ]"
else
	skip "python3 is not installed"
fi

# The compare record against doc/schema.json's compare_record, by
# python3-jsonschema; one with a verdict it does not know is refused.
"$BONNIE" compare -o json $F/ng-base.json $F/ng-slower.json $F/pp-198.csv \
    >"$T/c3.json"
schema_ok "json: the compare record matches doc/schema.json's compare_record" \
    -d compare_record "$T/c3.json"
jq '.columns[0].new[0].verdict = "worst"' "$T/c3.json" >"$T/c3bad.json"
python3 tests/schema.py doc/schema.json -d compare_record "$T/c3bad.json" \
    >/dev/null 2>&1
st=$?
if [ $st -eq 2 ]; then
	skip "python3-jsonschema is not installed"
else
	check "json: and a verdict it does not know is refused" \
	    $([ $st -eq 1 ]; echo $?)
fi
# ajv (npm's ajv, JSON Schema 2020-12) compiles the schema with strict: true,
# each record's definition too; skipped without node and ajv.
if command -v node >/dev/null 2>&1 &&
    node -e 'require("ajv/dist/2020")' >/dev/null 2>&1; then
	node tests/ajv-strict.js doc/schema.json >"$T/ajv" 2>&1
	st=$?
	[ $st -eq 0 ] || diag "$(cat "$T/ajv")"
	check "ajv strict compiles doc/schema.json and its records" $st
else
	skip "node or npm's ajv not found (npm install ajv; NODE_PATH)"
fi

"$BONNIE" compare -o markdown $F/ng-base.json $F/ng-slower.json >"$T/md"
check "markdown: a worse selected column exits 1" "$([ $? -eq 1 ]; echo $?)"
ok "markdown: the verdict heads it" \
    sh -c "head -1 '$T/md' | grep -q '^### bonnie-ng compare: worse'"
ok "markdown: a header row with the text's cv and flags, and its alignment row" sh -c "
    grep -q '^| column | unit | base | cv | new | cv | change | verdict | method | flags |\$' '$T/md' &&
    grep -q '^| :-- | :-- | --: | --: | --: | --: | --: | :-- | :-- | :-- |\$' '$T/md'"
rows=$(grep -c '^| [a-z]' "$T/md")
ok "markdown: one row per compared column, besides the header ($((rows - 1)))" \
    sh -c "[ $((rows - 1)) = \"\$(jq '.columns | length' '$T/j.json')\" ]"
ok "markdown: every row has the header's 11 bars" sh -c "
    grep '^|' '$T/md' | sed 's/\\\\|//g' | awk -F'|' 'NF != 12 { exit 1 }'"
ok "markdown: the worse selected column is in bold, with its cv" \
    grep -q '^| write | K/sec | [0-9]* | 1.6% | [0-9]* | 1.6% | -20.0% | \*\*worse\*\* |' "$T/md"
# The imprecise and warm flags, as the text's: a new side whose write is
# imprecise and whose read was warm.
if command -v jq >/dev/null 2>&1; then
	jq '.runs[].phases.write.imprecise = true |
	    .runs[].phases.read.cache = "warm"' $F/ng-slower.json >"$T/fl.json"
	"$BONNIE" compare $F/ng-base.json "$T/fl.json" >"$T/ft"
	"$BONNIE" compare -o markdown $F/ng-base.json "$T/fl.json" >"$T/fm"
	fw=$(awk '$1 == "write" { print $NF }' "$T/ft")
	fr=$(awk '$1 == "read" { print $NF }' "$T/ft")
	ok "markdown: the flags the text shows (write $fw, read $fr)" sh -c "
	    [ '$fw' = n:I ] && [ '$fr' = n:W ] &&
	    grep '^| write |' '$T/fm' | grep -q '| n:I |\$' &&
	    grep '^| read |' '$T/fm' | grep -q '| n:W |\$'"
else
	skip "jq is not installed"
fi
"$BONNIE" compare -o markdown $F/pp-198.csv $F/ng-base.json >"$T/pm" \
    2>/dev/null
# The per-char note (a side is bonnie++) is no table row: outside the
# table, in the settings' block, as a GFM renderer draws it.
ok "markdown: the per-char note is outside the table" sh -c "
    grep -q '^note: the per-char columns' '$T/pm' &&
    ! grep -q '^| *note' '$T/pm' &&
    awk '/^\\\`\\\`\\\`/ { b = !b } /^note: the per-char/ && !b { exit 1 }' '$T/pm'"
if command -v node >/dev/null 2>&1 &&
    node tests/md-table.js "$T/pm" per-char >"$T/mt" 2>/dev/null; then
	n=$(jq '.columns | length' "$T/c3.json")
	rows=$(awk '$1 == "table" { print $2; exit }' "$T/mt")
	check "markdown: marked draws one table of $((n + 1)) rows, none the note (got ${rows:-none})" \
	    $([ "$(grep -c '^table ' "$T/mt")" -eq 1 ] &&
	    [ "$rows" = $((n + 1)) ] && ! grep -q '^cell ' "$T/mt"; echo $?)
	check "markdown: every row marked draws has 10 cells" \
	    $(awk '$1 == "table" { for (i = 3; i <= NF; i++) if ($i != 10) exit 1 }' \
	    "$T/mt"; echo $?)
else
	skip "node or marked not found (npm install marked; NODE_PATH)"
	skip "node or marked not found (npm install marked; NODE_PATH)"
fi

"$BONNIE" compare -o xml $F/ng-base.json $F/ng-slower.json >"$T/out" 2>"$T/err"
check "-o xml is refused with exit 2" "$([ $? -eq 2 ]; echo $?)"
# The outputs named are the program's own (a new one does not break this).
ok "in one line that names the outputs" sh -c "
    [ \$(wc -l <'$T/err') -eq 1 ] &&
    grep -q '(use text, json, [a-z, ]*junit[a-z, ]* or [a-z]*)' '$T/err'"

done_testing
