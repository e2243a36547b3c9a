#!/bin/sh
# Run every test: the C unit tests (tests/t-*.c, built into $O/tests) and
# the shell tests (tests/t-*.sh).  Each prints TAP; this runner shows it,
# counts it, and ends with "N passed, N failed, N skipped".
#
# Usage: sh tests/run.sh [BUILD-DIR] [TEST-NAME...]
# A TEST-NAME without its extension names both t-NAME.c and t-NAME.sh.

O=${1:-.}
[ $# -gt 0 ] && shift
BONNIE=$O/bonnie-ng
case $BONNIE in /*) ;; *) BONNIE=$(pwd)/$BONNIE ;; esac
export BONNIE O

pass=0 fail=0 skipped=0 broken=""
log=$(mktemp "${TMPDIR:-/tmp}/bonnie-ng-run.XXXXXX") || exit 1
bin=$(mktemp -d "${TMPDIR:-/tmp}/bonnie-ng-bin.XXXXXX") || exit 1
trap 'rm -rf "$log" "$bin"' EXIT

# The schema checks use python3's jsonschema, which Debian's package puts
# in the system python3; prefer that one when another python3 comes first
# in PATH without the module.
if ! python3 -c 'import jsonschema' >/dev/null 2>&1 &&
    /usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1; then
	ln -s /usr/bin/python3 "$bin/python3"
	PATH=$bin:$PATH
	export PATH
fi

list=""
for t in tests/t-*.c tests/t-*.sh; do
	[ -e "$t" ] || continue
	file=$(basename "$t"); name=${file%.*}
	if [ $# -gt 0 ]; then
		want=0
		for w in "$@"; do
			[ "$w" = "$name" ] || [ "$w" = "$file" ] && want=1
		done
		[ $want -eq 1 ] || continue
	fi
	list="$list $t"
done

for t in $list; do
	name=$(basename "$t")
	case $t in
	*.c)	cmd="$O/tests/${name%.c}" ;;
	*.sh)	cmd="sh $t" ;;
	esac
	echo "# $name"
	start=$(date +%s)
	$cmd >"$log" 2>&1
	status=$?
	sed 's/^/    /' "$log"
	p=$(grep -c '^ok ' "$log" | tr -d ' ')
	s=$(grep -c '^ok .*# *[Ss][Kk][Ii][Pp]' "$log" | tr -d ' ')
	# "not ok N # TODO" is a known gap, not a failure (TAP).
	f=$(grep '^not ok ' "$log" | grep -vc '# *TODO' | tr -d ' ')
	todo=$(grep -c '^not ok .*# *TODO' "$log" | tr -d ' ')
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$log" | tail -n 1)
	pass=$((pass + p - s)); skipped=$((skipped + s)); fail=$((fail + f))
	if [ $status -ne 0 ] || [ -z "$plan" ] ||
	    [ "$plan" -ne $((p + f + todo)) ]; then
		[ $f -eq 0 ] && fail=$((fail + 1))
		broken="$broken $name(exit $status, plan ${plan:-none}, ran $((p + f + todo)))"
	fi
	echo "# $name: $((p - s)) passed, $f failed, $s skipped, $todo todo ($(( $(date +%s) - start ))s)"
done

[ -n "$broken" ] && echo "# failing test programs:$broken"
echo "$pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
