#!/bin/sh
# --cache=global: refused with one line and exit 2, before any file is
# made, when this process may not drop the caches (as nobody); as root,
# one sync(2) and one write of "3" to /proc/sys/vm/drop_caches before each
# reading or lookup phase and none before the others (strace), the
# kernel's own drop counter moved as often (/proc/vmstat), the drop's time
# outside the phase's elapsed time (each sync delayed 1.5 s by strace
# while the phases run in less), and every phase's cache state in the
# record.
# run.sh: alone: it empties the page cache of the whole machine, under
# the other tests' cache checks (t-cold's keep run), and times its drops.
# run.sh: suites: plain portable: alone; the portable build refuses
#   --cache=global
. tests/lib.sh
scratch
chmod 755 "$T"
# LeakSanitizer cannot run under ptrace (strace).
STRACE_ENV="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# A bad value names the three.
"$BONNIE" -q -d "$T" -s 4m --cache=warm >"$T/out" 2>"$T/err"
st=$?
check "--cache=warm: exit 2 (got $st)" $([ $st -eq 2 ]; echo $?)
check "--cache=warm: names cold, keep and global" \
    $(grep -q "use cold, keep or global" "$T/err"; echo $?)

# The portable build has no way to drop every cache: refused up front.
if portable; then
	"$BONNIE" -q -d "$T" -s 4m --cache=global >"$T/out" 2>"$T/err"
	st=$?
	[ $st -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	    grep -q "^bonnie-ng: invalid value for --cache: global: .*Function not implemented" "$T/err" &&
	    [ -z "$(ls -A "$T" | grep bonnie-ng)" ]
	check "portable build: --cache=global refused, one line, exit 2, no file (got $st)" $?
	skip "the portable build drops no global cache (Linux's drop_caches)"
	done_testing
	exit
fi

# Not permitted: as nobody, in a directory nobody may write.
if ! is_root || ! command -v setpriv >/dev/null 2>&1; then
	skip "not root or no setpriv: cannot run as nobody"
	skip "not root or no setpriv"
	skip "not root or no setpriv"
else
	U=$(mktemp -d "${TMPDIR:-/tmp}/bonnie-ng-global.XXXXXX")
	chmod 777 "$U"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$BONNIE" \
	    -q -d "$U" -s 4m -c 4k --files 1 -p read,stat --cache=global \
	    >"$T/out" 2>"$T/err"
	st=$?
	check "as nobody: exit 2 (got $st)" $([ $st -eq 2 ]; echo $?)
	check "as nobody: one line naming drop_caches" \
	    $([ "$(wc -l <"$T/err")" -eq 1 ] &&
	    grep -q "^bonnie-ng: invalid value for --cache: global: /proc/sys/vm/drop_caches: Permission denied" "$T/err"; echo $?)
	[ "$(wc -l <"$T/err")" -eq 1 ] || sed 's/^/#   /' "$T/err"
	check "as nobody: no file made" \
	    $([ -z "$(ls -A "$U")" ]; echo $?)
	rm -rf "$U"
fi

if ! is_root || ! [ -w /proc/sys/vm/drop_caches ]; then
	skip "not root: no global drop"
	done_testing
	exit
fi

# Cold mode cannot reach the file phases' metadata: said so, per phase.
"$BONNIE" -q -d "$T" --files 1 -p create,stat --json "$T/c.json" \
    >/dev/null 2>"$T/err"
check "cold: the file phases ran undropped" $(jq -e '
    .runs[0].phases | .create.cache == "undropped" and
    .stat.cache == "undropped"' "$T/c.json" >/dev/null; echo $?)
"$BONNIE" -q -d "$T" --files 1 -p create,stat --cache=keep \
    --json "$T/k.json" >/dev/null 2>"$T/err"
check "keep: the file phases keep" $(jq -e '
    .runs[0].phases | .create.cache == "keep" and .stat.cache == "keep"' \
    "$T/k.json" >/dev/null; echo $?)

# Global, with a reading phase, a create and the three lookup phases.
PH=write,read,create,stat,delete,rcreate,rstat
DROPS=4		# read, stat, delete, rstat
v0=$(awk '$1 == "drop_pagecache" { print $2 }' /proc/vmstat)
"$BONNIE" -q -d "$T" -s 8m -c 4k --files 1 -p $PH --cache=global \
    --json "$T/g.json" >/dev/null 2>"$T/err"
st=$?
v1=$(awk '$1 == "drop_pagecache" { print $2 }' /proc/vmstat)
check "global: exit 0 (got $st)" $st
[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
check "global: options.cache is global" \
    $(jq -e '.options.cache == "global"' "$T/g.json" >/dev/null; echo $?)
# Other runs on this machine may drop too: at least ours.
check "global: /proc/vmstat drop_pagecache rose by >= $DROPS ($v0 -> $v1)" \
    $([ -n "$v0" ] && [ $((v1 - v0)) -ge $DROPS ]; echo $?)
check "global: lookup phases dropped, creates undropped, read cold" \
    $(jq -e '.runs[0].phases | .stat.cache == "dropped" and
    .delete.cache == "dropped" and .rstat.cache == "dropped" and
    .create.cache == "undropped" and .rcreate.cache == "undropped" and
    (.read.cache == "cold" or .read.cache == "warm")' "$T/g.json" \
    >/dev/null; echo $?)
schema_ok "global: the record matches doc/schema.json" "$T/g.json"
check "global: options.files as given" $(jq -e '.options.files ==
    {"files": 1024, "max_bytes": 0, "min_bytes": 0, "dirs": 0,
    "given": true}' "$T/g.json" >/dev/null; echo $?)
check "no file or directory left" \
    $([ -z "$(ls -A "$T" | grep bonnie-ng)" ]; echo $?)

if ! command -v strace >/dev/null 2>&1; then
	skip "no strace"
	skip "no strace"
	skip "no strace"
	done_testing
	exit
fi
# Each sync made 1.5 s slower: the drop is counted in drop_s, not in the
# phase, which takes a fraction of that (a small file in large chunks, and
# strace stops only at the calls it traces).
env "$STRACE_ENV" strace -f -qq --seccomp-bpf -o "$T/st" \
    -e trace=sync,write -e inject=sync:delay_enter=1500000 "$BONNIE" -q \
    -d "$T" -s 4m -c 64k --files 1 -p write,read,create,stat --cache=global \
    --json "$T/s.json" >/dev/null 2>"$T/err"
st=$?
check "global under strace: exit 0 (got $st)" $st
n=$(grep -c 'sync()' "$T/st")
w=$(grep -c 'write([0-9]*, "3\\n", 2) *= 2' "$T/st")
check "strace: 2 syncs and 2 writes of 3, before read and stat (got $n, $w)" \
    $([ "$n" = 2 ] && [ "$w" = 2 ]; echo $?)
check "the drops outside the timed phases: drop_s >= 1.5, elapsed_s < 1.5" \
    $(jq -e '.runs[0].phases | [.read, .stat] |
    all(.drop_s >= 1.5 and .elapsed_s < 1.5)' "$T/s.json" >/dev/null;
    echo $?)
jq -c '.runs[0].phases | to_entries[] | select(.value != null) |
    [.key, .value.elapsed_s, .value.drop_s, .value.cache]' "$T/s.json" |
    sed 's/^/# /'
done_testing
