#!/bin/sh
# compare's outputs for CI: -o junit is JUnit XML that xmllint validates
# against tests/junit.xsd, with a test case per compared column and a
# failure for each --fail-on column that got worse (its change and method
# in the message), in agreement with -o json; -o markdown is a Markdown
# table with a row per column.
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
	    echo '$msg' | grep -q -- '-20.0%' && echo '$msg' | grep -q 'MW p='"
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

"$BONNIE" compare -o markdown $F/ng-base.json $F/ng-slower.json >"$T/md"
check "markdown: a worse selected column exits 1" "$([ $? -eq 1 ]; echo $?)"
ok "markdown: the verdict heads it" \
    sh -c "head -1 '$T/md' | grep -q '^### bonnie-ng compare: worse'"
ok "markdown: a header row and its alignment row" sh -c "
    grep -q '^| column | unit | base | new | change | verdict | method |\$' '$T/md' &&
    grep -q '^| :-- | :-- | --: | --: | --: | :-- | :-- |\$' '$T/md'"
rows=$(grep -c '^| [a-z]' "$T/md")
ok "markdown: one row per compared column, besides the header ($((rows - 1)))" \
    sh -c "[ $((rows - 1)) = \"\$(jq '.columns | length' '$T/j.json')\" ]"
ok "markdown: every row has the header's 8 bars" sh -c "
    grep '^|' '$T/md' | sed 's/\\\\|//g' | awk -F'|' 'NF != 9 { exit 1 }'"
ok "markdown: the worse selected column is in bold" \
    grep -q '^| write | K/sec | [0-9]* | [0-9]* | -20.0% | \*\*worse\*\* |' "$T/md"

"$BONNIE" compare -o xml $F/ng-base.json $F/ng-slower.json >"$T/out" 2>"$T/err"
check "-o xml is refused with exit 2" "$([ $? -eq 2 ]; echo $?)"
ok "in one line that names the outputs" sh -c "
    [ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'junit or markdown' '$T/err'"

done_testing
