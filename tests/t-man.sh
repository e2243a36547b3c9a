#!/bin/sh
# The manual: mandoc -Tlint is clean, man -l renders it without a warning,
# it documents every long option that --help lists, and make install puts
# the program and the page under DESTDIR/PREFIX.
. tests/lib.sh
scratch

MAN=man/bonnie-ng.1

if command -v mandoc >/dev/null 2>&1; then
	mandoc -Tlint -W style "$MAN" >"$T/lint" 2>&1
	# Allowed: Mdocdate (a convention of OpenBSD's tree) and "mandoc.db
	# lacks NAME(N) entry", which says only that the page an .Xr points
	# to is not installed on this machine.
	grep -v -e 'Mdocdate' -e 'mandoc\.db lacks' "$T/lint" >"$T/lint2"
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

# Every long option in the usage is in the manual, as ".Fl -name".
if "$BONNIE" --help >"$T/help" 2>/dev/null; then
	grep -o -- '--[a-z][a-z-]*' "$T/help" | sort -u >"$T/longs"
	: >"$T/missing"
	while read -r o; do
		grep -q -- "Fl ${o#-}\\b" "$MAN" || echo "$o" >>"$T/missing"
	done <"$T/longs"
	[ -s "$T/missing" ] && diag "not in the manual: $(cat "$T/missing")"
	check "every long option of --help ($(wc -l <"$T/longs")) is in the manual" \
	    "$([ -s "$T/longs" ] && [ ! -s "$T/missing" ] && echo 0 || echo 1)"
else
	check "--help exits 0" 1
fi

# make install into a staging directory.  The binary is the one under
# test: O is the build directory the runner was given.
if command -v make >/dev/null 2>&1 && [ -f Makefile ]; then
	make -s O="${O:-.}" install DESTDIR="$T/inst" PREFIX=/usr \
	    >"$T/make" 2>&1
	check "make install DESTDIR=... PREFIX=/usr exits 0" $?
	ok "the program is installed in /usr/bin, executable" \
	    test -x "$T/inst/usr/bin/bonnie-ng"
	ok "the installed program runs" \
	    sh -c "'$T/inst/usr/bin/bonnie-ng' -V >/dev/null"
	ok "the page is installed in /usr/share/man/man1" \
	    cmp -s "$MAN" "$T/inst/usr/share/man/man1/bonnie-ng.1"
else
	for i in 1 2 3 4; do skip "make is not available"; done
fi

done_testing
