#!/bin/sh
# Dependencies point down: no cycle between modules, neither in the
# include graph (from src/*.c and include/*.h) nor in the call graph (from
# the symbols each object file defines and uses, by nm(1)).
#
# A module is src/NAME.c with include/NAME.h; src/NAME-linux.c and
# src/NAME-posix.c are the per-system halves of module NAME.  A header
# without a module of its own is a family's interface, which the files
# src/NAME-*.c implement (compare-out.h: the printers; record.h, sweep.h,
# vm.h), or declares no function (phase-list.h), or is a private header
# whose functions the modules named in OWNERS below define (runner.h:
# run.c's parts, run-*.c); checked below from the objects.  A cycle is
# found by tsort(1), which names the modules on it.  The checker is first
# run on two small trees with a cycle put in on purpose, so that it is
# known to fail when someone adds one.
# run.sh: long: among the longest in CI; started first on a clean clone
# run.sh: suites: plain portable: the objects' call graph, which the
#   platform layer's half changes and the sanitizers do not
. tests/lib.sh
scratch

# The module a file belongs to.
module() {
	m=${1##*/}
	m=${m%.*}
	m=${m%-linux}
	m=${m%-posix}
	echo "$m"
}

# The module of each file awk reads (FILENAME), as module() does.
AWK_MODULE='function module(f) { sub(/.*\//, "", f); sub(/\.[^.]*$/, "", f)
    sub(/-(linux|posix)$/, "", f); return f }'

# include_edges DIR: "FROM TO" for each #include "TO.h" in DIR's sources
# (one awk over them all: a process a file cost the test seconds of CPU).
include_edges() {
	_d=$1
	set --
	for f in "$_d"/src/*.c "$_d"/include/*.h; do
		[ -e "$f" ] && set -- "$@" "$f"
	done
	[ $# -gt 0 ] || return 0
	awk "$AWK_MODULE"'
	    FNR == 1 { m = module(FILENAME); print m, m }
	    /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"\/]*\.h"/ {
		h = $0; sub(/^[^"]*"/, "", h); sub(/\.h".*/, "", h)
		if (h != m) print m, h }' "$@"
}

# call_edges OBJDIR FILE.c...: "FROM TO" for each global symbol an object
# uses that another module's object defines (one nm over them all).
call_edges() {
	d=$1
	shift
	for f in "$@"; do
		n=${f##*/}
		o=$d/${n%.c}.o
		[ -e "$o" ] && set -- "$@" "$o"
		shift
	done
	[ $# -gt 0 ] || return 0
	nm -A -P "$@" | awk "$AWK_MODULE"'
		{ f = $1; sub(/:$/, "", f); mod = module(f) }
		$3 == "U" { use[mod " " $2] = 1; next }
		$3 ~ /^[A-TV-Z]$/ { def[$2] = mod; mods[mod] = 1 }
		END {
			for (m in mods)
				print m, m
			for (k in use) {
				split(k, a, " ")
				if ((a[2] in def) && def[a[2]] != a[1])
					print a[1], def[a[2]]
			}
		}' | sort -u
}

# acyclic DESC: read edges on stdin; pass when tsort finds no loop.
acyclic() {
	sort -u >"$T/edges"
	tsort "$T/edges" >/dev/null 2>"$T/loop"
	st=$?
	[ -s "$T/loop" ] && diag "$(cat "$T/loop")"
	[ $st -eq 0 ] && [ ! -s "$T/loop" ]
}

# --- The checker fails on a cycle put in on purpose. ---

mkdir -p "$T/bad/src" "$T/bad/include" "$T/good/src" "$T/good/include"
printf '#include "b.h"\n' >"$T/bad/src/a.c"
printf '#include "a.h"\n' >"$T/bad/include/b.h"
printf '#include "c.h"\n' >"$T/bad/src/b-linux.c"
printf '#include "a.h"\n' >"$T/bad/include/c.h"
printf '#include "b.h"\n' >"$T/good/src/a.c"
printf '#include <stdio.h>\n#include "c.h"\n' >"$T/good/include/b.h"
printf '#include "c.h"\n' >"$T/good/src/c-posix.c"
include_edges "$T/bad" | acyclic >/dev/null
ok "an include cycle (a -> b -> a) is found" [ $? -ne 0 ]
grep -q 'a$' "$T/loop" && grep -q 'b$' "$T/loop"
check "the loop is named" $?
include_edges "$T/good" | acyclic
check "no cycle in a tree without one" $?

if command -v nm >/dev/null 2>&1 && command -v "${CC:-cc}" >/dev/null 2>&1; then
	mkdir -p "$T/o"
	printf 'int b(void);\nint a(void) { return b(); }\n' >"$T/o/a.c"
	printf 'int a(void);\nint b(void) { return a(); }\n' >"$T/o/b.c"
	printf 'int b(void) { return 1; }\n' >"$T/o/c.c"
	for x in a b c; do
		"${CC:-cc}" -c -o "$T/o/$x.o" "$T/o/$x.c" || exit 1
	done
	call_edges "$T/o" "$T/o/a.c" "$T/o/b.c" | acyclic >/dev/null
	ok "a call cycle (a() calls b() calls a()) is found" [ $? -ne 0 ]
	mv "$T/o/c.o" "$T/o/b.o"
	call_edges "$T/o" "$T/o/a.c" "$T/o/b.c" | acyclic
	check "no call cycle when b() calls nothing" $?
else
	skip "nm or cc is not installed"
	skip "nm or cc is not installed"
fi

# --- The tree itself. ---

include_edges . >"$T/includes"
acyclic <"$T/includes"
check "no include cycle between modules" $?
[ "$(grep -c '^resultset read-\|^resultset rs-read' "$T/includes")" -eq 0 ]
check "resultset includes no reader" $?
[ "$(grep -c '^record-csv resultset' "$T/includes")" -eq 0 ]
check "record-csv does not include resultset.h" $?

objdir=${O:-.}/obj
if ! command -v nm >/dev/null 2>&1; then
	skip "nm is not installed"
	skip "nm is not installed"
elif [ ! -e "$objdir/run.o" ]; then
	skip "no objects in $objdir (build first)"
	skip "no objects in $objdir (build first)"
else
	call_edges "$objdir" src/*.c >"$T/calls"
	# The graph is real: the core calls the phase table, the table the
	# phases, and compare reads files through the reader table.
	grep -q '^run phase$' "$T/calls" &&
	    grep -q '^phase phase-write$' "$T/calls" &&
	    grep -q '^rs-read read-json$' "$T/calls" &&
	    grep -q '^read-json resultset$' "$T/calls"
	check "the call graph has the edges it must have" $?
	acyclic <"$T/calls"
	check "no call cycle between modules" $?

	# A header without a module of its own: its functions are defined
	# by its family (src/NAME-*.c) or its owners (see the top).
	OWNERS="runner:run phase-ctx:phasekit,phase-files result:names"
	nm -A --defined-only "$objdir"/*.o 2>/dev/null | awk '$2 == "T" {
	    f = $1; sub(/:.*/, "", f); sub(/.*\//, "", f); sub(/\.o$/, "", f)
	    sub(/-(linux|posix)$/, "", f); print $3, f }' >"$T/defs"
	: >"$T/stray"
	for h in include/*.h; do
		n=$(basename "$h" .h)
		own=$(echo " $OWNERS " | sed -n "s/.* $n:\([^ ]*\) .*/\1/p" |
		    tr ',' ' ')
		# A module's header: its own (what else it declares is not
		# this check's).
		[ -z "$own" ] && { [ -e "src/$n.c" ] ||
		    [ -e "src/$n-linux.c" ]; } && continue
		[ -z "$own" ] && ls src/"$n"-*.c >/dev/null 2>&1 && own=$n
		# Each function the header declares, where it is defined (one
		# awk a header: one a function cost the test 25 s of CPU).
		awk -v h="$h" -v own="$own" 'NR == FNR {
		    if (!($1 in def)) def[$1] = $2; next }
		    /^[a-z_]/ && !/^(typedef|struct|enum|union|extern|static)/ &&
		    /\(/ { s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ \t*]+/)
		    fn = w[n]; if (!(fn in def)) next	# Not built here.
		    m = def[fn]; hit = 0; k = split(own, o, " ")
		    for (i = 1; i <= k; i++)
			if (m == o[i] || index(m, o[i] "-") == 1) hit = 1
		    if (!hit) print h ": " fn "() is in src/" m ".c" }' \
		    "$T/defs" "$h" >>"$T/stray"
	done
	[ -s "$T/stray" ] && diag "$(cat "$T/stray")"
	ok "a header without a module: its functions its family's or owners'" \
	    sh -c "[ ! -s '$T/stray' ]"
fi

done_testing
