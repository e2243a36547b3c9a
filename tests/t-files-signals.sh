#!/bin/sh
# A second signal never leaves the file creation tree behind: one that
# comes while the tree is being removed waits for the removal (which runs
# with the stop signals blocked), and one that comes before the removal
# began removes the tree from the handler.  Each timing is made certain
# with strace's delay injection, and checked in strace's log.
. tests/lib.sh
scratch
chmod 755 "$T"
# LeakSanitizer cannot run under ptrace (strace).
STRACE_ENV="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

no_file_dirs() {
	[ -z "$(find "$1" -maxdepth 1 -name 'bonnie-ng-files.*' 2>/dev/null)" ]
}

if ! command -v strace >/dev/null 2>&1; then
	i=0
	while [ $i -lt 8 ]; do skip "strace not installed"; i=$((i + 1)); done
	done_testing
	exit
fi

# wait_for FILE PATTERN: until PATTERN is in FILE (at most 60 s, a bound
# for a loaded machine).
wait_for() {
	i=0
	while [ $i -lt 600 ] && ! grep -q "$2" "$1" 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
}

# joined FILE: strace -f's log with each call that another thread's call
# split ("<unfinished ...>", then "<... NAME resumed>") on one line again,
# so that a call's arguments and its result can be matched together.
joined() {
	awk '/<unfinished \.\.\.>$/ { sub(/ <unfinished \.\.\.>$/, ""); held[$1] = $0; next }
	    /<\.\.\. [a-z0-9_]+ resumed>/ && ($1 in held) {
		line = $0; sub(/^.*resumed> ?/, "", line)
		print held[$1] line; delete held[$1]; next }
	    { print }' "$1"
}

# first_line FILE PATTERN [N]: the line number of the Nth match.
nth_line() {
	grep -n -e "$2" "$1" | sed -n "${3:-1}p" | cut -d: -f1
}

# A: the second SIGINT while the tree is removed (each unlink 3 ms): it
# is sent once 20 unlinks are seen.
env "$STRACE_ENV" strace -f --seccomp-bpf -o "$T/a.st" -e trace=openat,unlinkat \
    -e inject=openat:delay_enter=1000 -e inject=unlinkat:delay_enter=3000 \
    "$BONNIE" -d "$T" --files 2 -p create >/dev/null 2>"$T/a.err" &
spid=$!
wait_for "$T/a.err" "Creating files in order"
# Once 20 files are made, so that there is a tree to remove.
i=0
while [ $i -lt 600 ] && [ "$(grep -c 'openat(.*"[0-9]\{10\}"' "$T/a.st")" -lt 20 ]; do
	sleep 0.1; i=$((i + 1))
done
bpid=$(pgrep -P $spid | head -n 1)
kill -INT "$bpid"
i=0
while [ $i -lt 600 ] && [ "$(grep -c 'unlinkat(.*"[0-9]\{10\}"' "$T/a.st")" -lt 20 ]; do
	sleep 0.1; i=$((i + 1))
done
kill -INT "$bpid"
wait $spid
st=$?
check "A: exit 130 (got $st)" $([ $st -eq 130 ]; echo $?)
s2=$(nth_line "$T/a.st" '--- SIGINT' 2)
u1=$(nth_line "$T/a.st" 'unlinkat(.*"[0-9]\{10\}"')
ul=$(grep -n 'unlinkat(.*"[0-9]\{10\}"' "$T/a.st" | tail -1 | cut -d: -f1)
# Sent after 20 unlinks were seen; delivered after the last one.
check "A: the second SIGINT waited for the removal (lines $u1 < $ul < $s2)" \
    $([ -n "$s2" ] && [ -n "$u1" ] && [ "$u1" -lt "$ul" ] &&
    [ "$ul" -lt "$s2" ]; echo $?)
check "A: no directory left" $(no_file_dirs "$T"; echo $?)
joined "$T/a.st" >"$T/a.j"
n=$(grep -c 'unlinkat(.*"[0-9]\{10\}", 0) *= 0' "$T/a.j")
check "A: every file made was unlinked ($n)" \
    $([ "$n" -ge 1 ] && [ "$n" -eq "$(grep -c 'O_CREAT|O_EXCL.*= [0-9]' "$T/a.j")" ];
    echo $?)

# B: the second SIGINT while the run unwinds, before the removal: the
# "failed" progress write after the phase stopped is slowed to 1 s.
# (musl's stdio writes with writev.)  The second SIGINT goes as soon as
# strace has seen the first delivered: inside the slowed write.
env "$STRACE_ENV" strace -f --seccomp-bpf -o "$T/b.st" \
    -e trace=openat,unlinkat,write,writev \
    -e inject=openat:delay_enter=1000 \
    -e inject=write,writev:delay_enter=1000000:when=2+ \
    "$BONNIE" -d "$T" --files 2 -p create >/dev/null 2>"$T/b.err" &
spid=$!
wait_for "$T/b.st" 'O_CREAT|O_EXCL'
bpid=$(pgrep -P $spid | head -n 1)
kill -INT "$bpid"
wait_for "$T/b.st" '^[0-9]* *--- SIGINT'
kill -INT "$bpid"
wait $spid
st=$?
check "B: exit 130 (got $st)" $([ $st -eq 130 ]; echo $?)
s2=$(nth_line "$T/b.st" '--- SIGINT' 2)
u1=$(nth_line "$T/b.st" 'unlinkat(.*"[0-9]\{10\}"')
check "B: the second SIGINT came before the removal (lines $s2 < $u1)" \
    $([ -n "$s2" ] && [ -n "$u1" ] && [ "$s2" -lt "$u1" ]; echo $?)
check "B: no directory left" $(no_file_dirs "$T"; echo $?)
joined "$T/b.st" >"$T/b.j"
n=$(grep -c 'unlinkat(.*"[0-9]\{10\}", 0) *= 0' "$T/b.j")
check "B: every file made was unlinked ($n)" \
    $([ "$n" -ge 1 ] && [ "$n" -eq "$(grep -c 'O_CREAT|O_EXCL.*= [0-9]' "$T/b.j")" ];
    echo $?)
done_testing
