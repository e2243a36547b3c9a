#!/bin/sh
# No source file over 1000 lines and no function over 150 (doc/GUIDE's
# and doc/DEVELOPMENT.md's rule: split by what it does, not by size),
# checked so that it cannot drift.  A function is counted in style(9):
# its name at the start of a line, its body from a "{" alone at the start
# of a line to the next "}" there, from the line with its name to that
# "}".  The counter is checked first on a file made here, and against
# Universal Ctags' count of the functions when it is installed.
# run.sh: suites: plain: the sources, which no build changes
. tests/lib.sh
scratch

FILE_MAX=1000
FUNC_MAX=150

# functions FILE...: "LINES FILE:LINE NAME" for each function.
functions() {
	awk '
	FNR == 1 { name = ""; inbody = 0 }
	/\\$/ { next }			# A line of a macro.
	/^[A-Za-z_][^;]*\(/ && $0 !~ /;[ \t]*$/ && !/^(typedef|extern)/ {
		s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ \t*]+/)
		if (w[n] ~ /^[A-Za-z_][A-Za-z0-9_]*$/) { name = w[n]; start = FNR }
	}
	/^\{/ && name != "" { inbody = 1 }
	/^\}/ && inbody {
		print FNR - start + 1, FILENAME ":" start, name
		inbody = 0; name = ""
	}' "$@"
}

# The counter, on a file whose functions' lengths are known.
{
	printf 'static int\nsmall(void)\n{\n\treturn 0;\n}\n\n'
	printf 'int main(void)\n{\n'
	i=0
	while [ $i -lt 149 ]; do echo "	(void)0;"; i=$((i + 1)); done
	printf '}\n'
} >"$T/planted.c"
functions "$T/planted.c" >"$T/planted"
check "the counter: a 4-line function and a 152-line one" \
    $(awk 'NR == 1 && $1 == 4 && $3 == "small" { a = 1 }
	NR == 2 && $1 == 152 && $3 == "main" { b = 1 }
	END { exit !(a && b && NR == 2) }' "$T/planted"; echo $?) ||
    diag "$(cat "$T/planted")"

C_FILES=$(ls src/*.c tests/*.c tests/fault/*.c tests/fuzz/*.c bench/*.c \
    2>/dev/null)
if command -v ctags >/dev/null 2>&1 &&
    ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
	# shellcheck disable=SC2086
	have=$(functions $C_FILES | wc -l)
	# shellcheck disable=SC2086
	want=$(ctags -x --c-kinds=f $C_FILES | wc -l)
	check "the counter finds every function ctags finds ($have of $want)" \
	    $([ "$have" -eq "$want" ]; echo $?)
else
	skip "Universal Ctags is not installed"
fi

# shellcheck disable=SC2086
functions $C_FILES | awk -v max=$FUNC_MAX '$1 > max' >"$T/long"
[ -s "$T/long" ] && diag "over $FUNC_MAX lines: $(cat "$T/long")"
ok "no function over $FUNC_MAX lines" sh -c "[ ! -s '$T/long' ]"
diag "the longest: $(functions $C_FILES | sort -rn | head -n 1)"

# shellcheck disable=SC2086
wc -l $C_FILES include/*.h tests/fault/*.h tests/*.sh bench/*.sh \
    2>/dev/null | awk -v max=$FILE_MAX '$2 != "total" && $1 > max' \
    >"$T/big"
[ -s "$T/big" ] && diag "over $FILE_MAX lines: $(cat "$T/big")"
ok "no source file over $FILE_MAX lines" sh -c "[ ! -s '$T/big' ]"
diag "the largest: $(wc -l $C_FILES include/*.h 2>/dev/null |
    grep -v ' total$' | sort -rn | head -n 1)"

done_testing
