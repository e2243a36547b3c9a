#!/bin/sh
# A word that names no command (issue 43): refused with one line naming
# the commands, exit 2, nothing on standard output and no file made,
# whether it stands first (where a command belongs) or among run's
# options, before any --help after it; a command's name among run's
# options is told to come first.  The names in the refusal are the
# commands of bonnie-ng --help's usage (both come from the command
# table), so a new command is named without touching this test.
. tests/lib.sh
scratch
cd "$T" || exit 1

# The commands, as the usage lists them.
cmds=$("$BONNIE" --help | sed -n 's/^ *bonnie-ng \([a-z][a-z]*\) .*/\1/p' |
    tr '\n' ' ' | sed 's/ $//; s/ /, /g')
check "the usage lists the commands ($cmds)" $([ -n "$cmds" ]; echo $?)

# refused DESC WORD ARGS...: exit 2, the one line for WORD, nothing else.
refused() {
	_d=$1 _w=$2; shift 2
	"$BONNIE" "$@" >"$T/out" 2>"$T/err" </dev/null
	st=$?
	check "$_d: exit 2 (got $st), one line naming the commands, nothing made" \
	    $([ $st -eq 2 ] && [ ! -s "$T/out" ] &&
		[ "$(wc -l <"$T/err" | tr -d ' ')" = 1 ] &&
		grep -qxF "bonnie-ng: '$_w' is not a command ($cmds; without one, the benchmark runs: see bonnie-ng --help)" "$T/err" &&
		[ -z "$(ls "$T" | grep -v '^out$\|^err$')" ]; echo $?) ||
	    cat "$T/err" "$T/out" | head -5
}
for w in stats frob run vmm Compare; do
	refused "bonnie-ng $w --help" $w $w --help
	refused "bonnie-ng $w -d . -s 64k" $w $w -d . -s 64k
done
refused "bonnie-ng -q stats --help" stats -q stats --help
refused "bonnie-ng -d . -s 64k -- stats" stats -d . -s 64k -- stats
refused "bonnie-ng ./dir" ./dir ./dir

# A command's name among run's options: told to come first.
"$BONNIE" -d . compare >"$T/out" 2>"$T/err" </dev/null
st=$?
check "bonnie-ng -d . compare: exit 2 (got $st), told to put it first" \
    $([ $st -eq 2 ] && grep -qxF "bonnie-ng: 'compare' is a command, and comes first: bonnie-ng compare [options]" "$T/err"
	echo $?) || cat "$T/err"

# Every command still answers its --help, exit 0.
for c in $(echo "$cmds" | tr -d ','); do
	"$BONNIE" "$c" --help >"$T/out" 2>"$T/err" </dev/null
	st=$?
	check "bonnie-ng $c --help: exit 0 (got $st), its own usage" \
	    $([ $st -eq 0 ] && grep -q "^usage: bonnie-ng $c " "$T/out"; echo $?)
done
rm -f "$T/out" "$T/err"
done_testing
