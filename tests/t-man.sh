#!/bin/sh
# The manual: mandoc -Tlint is clean, man -l renders it without a warning,
# it documents every option and phase the program knows, doc/RECORD.md
# every key of the schema, the schema's phase lists are the phase table's,
# and make install puts
# the program, the page, the completions, the documents and the schema
# under DESTDIR/PREFIX and make uninstall takes them away.
# run.sh: suites: plain: the manual, the documents and make install, which
#   no build changes
. tests/lib.sh
scratch

MAN=man/bonnie-ng.1

if command -v mandoc >/dev/null 2>&1; then
	mandoc -Tlint -W style "$MAN" >"$T/lint" 2>&1
	# Allowed: Mdocdate (a convention of OpenBSD's tree), and "mandoc.db
	# lacks NAME(N) entry" or "referenced manual not found" (the words
	# without a mandoc.db), which say only that the page an .Xr points
	# to is not installed on this machine (fio(1) on a machine without
	# fio: a CI run failed on it).
	grep -v -e 'Mdocdate' -e 'mandoc\.db lacks' \
	    -e 'referenced manual not found' "$T/lint" >"$T/lint2"
	[ -s "$T/lint2" ] && diag "$(cat "$T/lint2")"
	ok "mandoc -Tlint is clean" sh -c "[ ! -s '$T/lint2' ]"
else
	skip "mandoc is not installed"
fi

if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 man -l "$MAN" >"$T/render" 2>"$T/warn"
	check "man -l renders the page" $?
	[ -s "$T/warn" ] && diag "$(cat "$T/warn")"
	ok "man -l prints no warning" sh -c "[ ! -s '$T/warn' ]"
	ok "the rendered page has its sections" sh -c "
		for s in NAME SYNOPSIS DESCRIPTION OPTIONS OUTPUT 'EXIT STATUS' EXAMPLES; do
			grep -q \"^\$s\" '$T/render' || { echo \"# no \$s\"; exit 1; }
		done"
else
	skip "man is not installed"
	skip "man is not installed"
	skip "man is not installed"
fi

# Every long option of the command line is one the program knows and one
# the manual documents (as ".Fl -name").  Each is tried against a missing
# directory, so nothing runs; a known option never gets "unknown option".
: >"$T/missing"
: >"$T/unknown"
for o in dir size chunk label seekers seeks fast quiet latency repeat \
    phases output json cache direct ram seed no-space-check help version; do
	case $o in
	fast|quiet|latency|direct|no-space-check|help|version) arg=--$o ;;
	json)	arg=--json=$T/j.json ;;
	*)	arg=--$o=zzz ;;
	esac
	"$BONNIE" -d "$T/no/such/dir" "$arg" >/dev/null 2>"$T/err"
	grep -qi 'unknown option\|unrecognized option' "$T/err" &&
	    echo "--$o" >>"$T/unknown"
	grep -q -- "Fl -$o\\b" "$MAN" || echo "--$o" >>"$T/missing"
done
[ -s "$T/unknown" ] && diag "unknown to the program: $(cat "$T/unknown")"
[ -s "$T/missing" ] && diag "not in the manual: $(cat "$T/missing")"
ok "the program knows every long option of issue 2" sh -c "[ ! -s '$T/unknown' ]"
ok "the manual documents every long option" sh -c "[ ! -s '$T/missing' ]"
ok "trying them made no file" sh -c "[ ! -e '$T/no' ] && [ ! -e '$T/j.json' ]"

# Every option of every command (its --help, made from its rows) has an
# entry in the manual, an .It line that names it (its long name, or its
# letter), in the command's part of the page: the benchmark's under
# OPTIONS, each other command's in its own subsection (a sweep's shared
# options are the benchmark's).  And every phase of the phase table has
# its entry under "The phases".
its() {	# its SH|SS TITLE: the .It lines of that section
	awk -v k="$1" -v t="$2" '
		/^\.Sh / { on = (k == "SH" && substr($0, 5) == t) }
		/^\.Ss / { if (k == "SS") on = (substr($0, 5) == t) }
		on && /^\.It/' "$MAN" | sed 's/\\-/-/g'
}
opts() {	# opts CMD: a line "name letter" per option of CMD's help
	# shellcheck disable=SC2086
	"$BONNIE" $1 --help 2>&1 | awk '
		/^  +-/ && $1 != "--" {
			l = ""; s = ""
			if ($1 ~ /^--/) l = $1
			else { s = substr($1, 2, 1); if ($1 ~ /,$/) l = $2 }
			sub(/^--/, "", l); sub(/[[= ].*/, "", l)
			if (l != "help" && l != "version") print (l == "" ? "-" : l), (s == "" ? "-" : s)
		}'
}
: >"$T/undocumented"
for c in run compare report sweep pp vm; do
	case $c in
	run)	cmd="" sec="SH OPTIONS" ;;
	compare) cmd=$c sec="SS Comparing results" ;;
	report)	cmd=$c sec="SS Reports" ;;
	sweep)	cmd=$c sec="SS Sweeps" ;;
	pp)	cmd=$c sec="SS Running bonnie++ command lines: pp" ;;
	vm)	cmd=$c sec="SS Kernels side by side: vm" ;;
	esac
	its ${sec%% *} "${sec#* }" >"$T/its"
	[ "$c" = sweep ] && its SH OPTIONS >>"$T/its"
	opts "$cmd" >"$T/opts"
	[ -s "$T/opts" ] || echo "$c: no options read from its --help" >>"$T/undocumented"
	while read -r l s; do
		{ [ "$l" != - ] && grep -Eq "Fl -$l([^a-z-]|\$)" "$T/its"; } ||
		    { [ "$s" != - ] && grep -Eq "Fl $s([^A-Za-z]|\$)" "$T/its"; } ||
		    echo "$c: ${l#-}${s#-}" >>"$T/undocumented"
	done <"$T/opts"
done
its SS "The phases" >"$T/its"
# The words -p completes: the phase table's names, then "all".
"$BONNIE" __complete bonnie-ng -p '' | sed 1d | grep -vx all >"$T/phases"
check "the phase table read ($(wc -l <"$T/phases") phases)" \
    $([ "$(wc -l <"$T/phases")" -ge 7 ]; echo $?)
while read -r p; do
	grep -Eq "(^|[ ,])$p( |,|\$)" "$T/its" ||
	    echo "phase $p" >>"$T/undocumented"
done <"$T/phases"
[ -s "$T/undocumented" ] && diag "no entry in the manual: $(cat "$T/undocumented")"
ok "every option of every command and every phase has its entry in the manual" \
    sh -c "[ ! -s '$T/undocumented' ]"

# The value lists the manual writes out: the benchmark's -p names every
# phase of the table, compare's -o every output its refusal lists.
item() {	# item PATTERN: the text of the first .It line matching it, to the next
	awk -v p="$1" 'on && /^\.It/ { exit } on { print } $0 ~ p { on = 1; print }' \
	    "$MAN" | sed 's/\\-/-/g'
}
unlisted() {	# unlisted NAMES ITEM: the names no ".Cm NAME" of ITEM has
	while read -r _w; do
		grep -Eq "Cm $_w( |\$)" "$2" || echo "$_w"
	done <"$1"
}
item '^\.It Fl p , Fl -phases' >"$T/pitem"
unlisted "$T/phases" "$T/pitem" >"$T/unlisted"
[ -s "$T/unlisted" ] && diag "not in -p's list: $(cat "$T/unlisted")"
ok "-p's item lists every phase of the table" sh -c "[ ! -s '$T/unlisted' ]"
"$BONNIE" compare -o nosuch a b 2>&1 | sed -n 's/.*(use \(.*\))$/\1/p' |
    sed 's/,\{0,1\} or /, /' | tr -d ' ' | tr ',' '\n' >"$T/outs"
item '^\.It Fl o Cm text Ns [|] Ns Cm json' >"$T/oitem"
unlisted "$T/outs" "$T/oitem" >"$T/unlisted"
[ -s "$T/unlisted" ] && diag "not in compare -o's item: $(cat "$T/unlisted")"
ok "compare -o's item names every output ($(wc -l <"$T/outs") of them)" sh -c "
    [ \$(wc -l <'$T/outs') -ge 4 ] && [ ! -s '$T/unlisted' ]"

# The record's documents agree with the code: every key the schema knows
# (records are checked against it, and it allows no other) is in
# doc/RECORD.md, and the schema's three lists of the phases (the phase
# names, the phases of a run, the summary) are the phase table's names.
if command -v jq >/dev/null 2>&1; then
	jq -r '[.. | objects | select(has("properties")) | .properties |
	    keys[]] | unique | .[]' doc/schema.json >"$T/keys"
	: >"$T/nokey"
	while read -r k; do
		grep -qw -- "$k" doc/RECORD.md || echo "$k" >>"$T/nokey"
	done <"$T/keys"
	[ -s "$T/nokey" ] && diag "not in doc/RECORD.md: $(cat "$T/nokey")"
	ok "every key of the schema ($(wc -l <"$T/keys")) is in doc/RECORD.md" \
	    sh -c "[ -s '$T/keys' ] && [ ! -s '$T/nokey' ]"
	sort "$T/phases" >"$T/table"
	for l in '.["$defs"].phase_name.enum[]' \
	    '.["$defs"].phases.properties | keys[]' \
	    '.properties.summary.properties | to_entries[] |
	    select(.value["$ref"] == "#/$defs/phase_summary") | .key'; do
		jq -r "$l" doc/schema.json | sort >"$T/listed"
		cmp -s "$T/table" "$T/listed" ||
		    diag "$l: $(diff "$T/table" "$T/listed" | grep '^[<>]' | tr '\n' ' ')"
		ok "the schema's $(echo $l | cut -c1-40): the phase table's names" \
		    cmp -s "$T/table" "$T/listed"
	done
else
	skip "jq is not installed"
	skip "jq is not installed"
	skip "jq is not installed"
	skip "jq is not installed"
fi

# The README is a front page: short, without the old section markers, and
# its links, and those of the documents it points to, lead to files that
# exist.
ok "README.md is at most 10 KiB" test "$(wc -c <README.md)" -le 10240
ok "README.md has no section markers" sh -c "! grep -q '<!--' README.md"
: >"$T/links"
for f in README.md doc/*.md bench/RESULTS.md; do
	d=$(dirname "$f")
	grep -o '](\([^)#:]*\))' "$f" | sed 's/^](//; s/)$//' |
	while read -r l; do
		[ -e "$d/$l" ] || echo "$f: $l" >>"$T/links"
	done
done
[ -s "$T/links" ] && diag "broken links: $(cat "$T/links")"
ok "the documents' links lead to files" sh -c "[ ! -s '$T/links' ]"
# doc/FAULTS.md's table: every row names tests that exist (or says why
# it is not tested here), and every message it quotes is in src/
# (tests/faults-table.py).
if command -v python3 >/dev/null 2>&1; then
	python3 tests/faults-table.py . >"$T/faults" 2>&1
	_r=$?
	[ $_r -eq 0 ] || diag "$(cat "$T/faults")"
	check "doc/FAULTS.md: each row names tests that exist, its messages are in src/" $_r
else
	skip "python3 is not installed: doc/FAULTS.md's table not checked"
fi

# make install into a staging directory.  The binary is the one under
# test: O is the build directory the runner was given.
# Only when the program is up to date, so that install never rebuilds (a
# sanitized build directory must not be rebuilt without its flags).
if ! command -v make >/dev/null 2>&1 || [ ! -f Makefile ]; then
	for i in 1 2 3 4 5 6 7 8 9; do skip "make is not available"; done
elif ! make -q O="${O:-.}" "${O:-.}/bonnie-ng" >/dev/null 2>&1; then
	for i in 1 2 3 4 5 6 7 8 9; do skip "the program is not up to date: install not tried"; done
else
	make -s O="${O:-.}" install DESTDIR="$T/inst" PREFIX=/usr \
	    >"$T/make" 2>&1
	check "make install DESTDIR=... PREFIX=/usr exits 0" $?
	ok "the program is installed in /usr/bin, executable" \
	    test -x "$T/inst/usr/bin/bonnie-ng"
	ok "the installed program runs" \
	    sh -c "'$T/inst/usr/bin/bonnie-ng' -V >/dev/null"
	ok "bonnie++-ng is a link to bonnie-ng, with its page, and is pp" \
	    sh -c "[ \"\$(readlink '$T/inst/usr/bin/bonnie++-ng')\" = bonnie-ng ] &&
	    [ \"\$(readlink '$T/inst/usr/share/man/man1/bonnie++-ng.1')\" = bonnie-ng.1 ] &&
	    '$T/inst/usr/bin/bonnie++-ng' -h | grep -q '^usage: bonnie-ng pp '"
	ok "the page is installed in /usr/share/man/man1" \
	    cmp -s "$MAN" "$T/inst/usr/share/man/man1/bonnie-ng.1"
	ok "the documents are installed in /usr/share/doc/bonnie-ng" \
	    cmp -s doc/RECORD.md "$T/inst/usr/share/doc/bonnie-ng/RECORD.md"
	ok "the schema is installed in /usr/share/bonnie-ng" \
	    cmp -s doc/schema.json "$T/inst/usr/share/bonnie-ng/schema.json"
	ok "the bash and zsh completions are installed" sh -c "
	    cmp -s completions/bonnie-ng.bash '$T/inst/usr/share/bash-completion/completions/bonnie-ng' &&
	    cmp -s completions/_bonnie-ng '$T/inst/usr/share/zsh/site-functions/_bonnie-ng'"
	make -s O="${O:-.}" uninstall DESTDIR="$T/inst" PREFIX=/usr \
	    >"$T/make" 2>&1
	ok "make uninstall removes every file it installed" \
	    sh -c "[ -z \"\$(find '$T/inst' -type f)\" ]"
fi

done_testing
