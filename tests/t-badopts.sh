#!/bin/sh
# Bad values for every option (negative, zero, overflowing, junk
# suffixes, out of range, too large for the file system): each is refused
# with one line on stderr naming the option, exit status 2, nothing on
# stdout, and no file created in the target directory.
. tests/lib.sh
. tests/fault/lib.sh
scratch
D=$T/d
mkdir "$D"

# bad OPTION-NAME-IN-MESSAGE ARGS...
bad() {
	_name=$1; shift
	"$BONNIE" -d "$D" -q "$@" >"$T/out" 2>"$T/err" </dev/null
	st=$?
	_r=0
	[ $st -eq 2 ] || _r=1
	one_line "$T/err" || _r=1
	grep -q "^bonnie-ng: .*$_name" "$T/err" || _r=1
	[ -s "$T/out" ] && _r=1
	[ -z "$(ls -A "$D")" ] || _r=1
	check "refused: $* (exit $st)" $_r
	[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
}

bad -s		-s -1
bad -s		-s 0
bad -s		-s 99999999999999999999999
bad -s		-s 18446744073709551615t
bad -s		-s 12x
bad -s		-s 4mm
bad -s		-s 1.5g
bad -s		-s ""
bad -s		-s " 4m"
bad -s		-s 1m -c 2m
bad -c		-c 1000
bad -c		-c 256
bad -c		-c 0
bad -c		-c 32m
bad -c		-c -4k
bad -c		-c 4kq
bad -S		-S 0
bad -S		-S -1
bad -S		-S 257
bad -S		-S 1x
bad -S		-S 99999999999999999999999
bad -S		--seekers=proc
bad -S		--seekers=
bad -n		-n 0
bad -n		-n -5
bad -n		-n 1e3
bad -n		-n 99999999999999999999999
bad -x		-x 0
bad -x		-x -2
bad -x		-x 99999999999
bad -p		-p bogus
bad -p		-p ""
bad -p		-p write,,read
bad --cache	--cache=hot
bad --cache	--cache=
bad --ram	--ram junk
bad --ram	--ram 0
bad --ram	--ram -1g
bad -z		-z junk
bad -z		-z -1
bad -z		-z 99999999999999999999999
bad -o		-o junk
bad -m		-m ""
bad -d		-d ""
bad option	--bogus
bad option	-Y
bad -s		-s
bad --json	--json

# Too large for the file system: refused up front naming both sizes
# (t-enospc.sh does the same on a small tmpfs when root).
free_kib=$(df -Pk "$D" | awk 'NR == 2 { print $4 }')
if [ -n "$free_kib" ] && [ "$free_kib" -lt 1073741824 ]; then
	bad -s -s 1t
	grep -Eq "1048576 MiB.* [0-9]+ MiB free" "$T/err"
	check "too large for the file system: names both sizes" $?
else
	skip "the file system has 1 TiB free or df failed"
	skip "the file system has 1 TiB free or df failed"
fi

done_testing
