# --iodepth: bad input refused before any file is made; a queued run
# moves every byte, checks every completed read, takes one latency sample
# per chunk (per seek), and issues its I/O through io_uring_enter (strace
# counts, no pread/pwrite left; in the portable build, by its worker
# processes); without a queue (an ENOSYS injected into io_uring_setup by
# strace, an EAGAIN into the portable build's fork) every phase falls back
# to one request at a time and the record says why.

. tests/lib.sh
scratch
# LeakSanitizer cannot run under ptrace: no leak check under strace.
NOLSAN="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

jqe() {
	jq -e "$@" >/dev/null
}

# bad ARGS...: exit 2, one line on stderr, no file in $T/b.
mkdir "$T/b"
bad() {
	desc=$1; shift
	"$BONNIE" -d "$T/b" -s 4m -q "$@" >"$T/out" 2>"$T/err"
	st=$?
	if [ $st -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	    [ -z "$(ls -A "$T/b")" ]; then
		check "$desc" 0
	else
		check "$desc" 1
		diag "exit $st: $(cat "$T/err")"
	fi
}
bad "--iodepth without --direct or --device: exit 2, one line" --iodepth 4
bad "--iodepth 0: exit 2" --direct --iodepth 0
bad "--iodepth above io_uring's entries: exit 2" --direct --iodepth 40000
bad "--iodepth with --sync-writes: exit 2" --direct --iodepth 4 --sync-writes
"$BONNIE" -d "$T/b" -s 4m -q --iodepth 4 2>&1 | grep -q -- '--direct'
check "the message names --direct" $?

nodirect=""
no_direct && nodirect="this build has no O_DIRECT (the portable build on glibc)"
dd if=/dev/zero of="$T/d" bs=4096 count=1 oflag=direct >/dev/null 2>&1 ||
    nodirect="no O_DIRECT on $T"
if [ -n "$nodirect" ]; then
	for i in 1 2 3 4 5 6 7 8 9 10 11; do
		skip "$nodirect"
	done
	done_testing
	exit
fi
rm -f "$T/d"

# 8 MiB of 4 KiB chunks: 2048 chunks; 3000 seeks by 2 seekers.
S=8388608 C=4096 N=3000
engine=io_uring
portable && engine=psync-workers
queued() {
	"$BONNIE" -d "$T" -s 8m -c "$C" -q --direct --iodepth 8 \
	    -p write,rewrite,read,seeks -S 2 -n "$N" --verify "$@"
}
queued --json "$T/q.json" >/dev/null 2>"$T/err"
st=$?
check "--direct --iodepth 8 --verify exits 0" $st
[ $st -eq 0 ] || diag "$(cat "$T/err")"
if jq -e '.runs[0].phases.write.queue.fallback != null' "$T/q.json" \
    >/dev/null 2>&1; then
	# The kernel has no io_uring: only the fallback can be checked.
	for i in 1 2 3 4 5 6; do
		skip "no io_uring here: $(jq -r '.runs[0].phases.write.queue.fallback' "$T/q.json")"
	done
else
	schema_ok "record matches doc/schema.json" "$T/q.json"
	ok "options.iodepth 8; each phase queued 8 deep through $engine" \
	    jqe --arg e "$engine" '.options.iodepth == 8 and ([.runs[0].phases |
	    .write, .rewrite, .read, .seeks | .queue.depth == 8 and
	    .queue.engine == $e and .queue.fallback == null] | all)' \
	    "$T/q.json"
	ok "block phases: every byte, one sample per chunk" jqe --argjson s "$S" \
	    --argjson c "$C" '[.runs[0].phases | .write, .rewrite, .read |
	    .bytes == $s and .ops == $s / $c and .latency.count == $s / $c] |
	    all' "$T/q.json"
	ok "seeks: one sample per seek" jqe --argjson n "$N" \
	    '.runs[0].phases.seeks | .ops == $n and .latency.count == $n' \
	    "$T/q.json"
	ok "every completed read checked, none bad" jqe --argjson s "$S" \
	    --argjson c "$C" --argjson n "$N" '.runs[0].phases |
	    .rewrite.verify.checked_bytes == $s and
	    .read.verify.checked_bytes == $s and
	    .seeks.verify.checked_bytes == $n * $c and
	    ([.rewrite, .read, .seeks | .verify.bad_chunks == 0] | all)' \
	    "$T/q.json"
	# The system calls: io_uring_enter carries the I/O, each request in
	# a call of its own as fio's does (a batch is plugged and merged:
	# src/queue.c), so the calls that submit are as many as the requests
	# (each chunk once, each seek once or twice) and none submits more
	# than one; the synchronous loops' pread and pwrite never run.  A
	# request goes with the wait after it, in one call: only the first
	# wait of each of the 4 queues (write, read, 2 seekers) and those for
	# its last 8 requests wait alone, 36 at most (fio: one a request).  The
	# portable build's workers do every pread and pwrite, the program
	# (its first process, which execs) none.
	if ! command -v strace >/dev/null 2>&1; then
		skip "strace is not installed"
	elif portable; then
		env "$NOLSAN" strace -f --seccomp-bpf -qq -y -o "$T/calls" \
		    -e trace=execve,pread64,pwrite64 \
		    "$BONNIE" -d "$T" -s 8m -c "$C" -q --direct --iodepth 8 \
		    -p write,read,seeks -S 2 -n "$N" >/dev/null 2>"$T/err"
		st=$?
		main=$(awk '/execve\(/ { print $1; exit }' "$T/calls")
		grep -E 'p(read|write)64\([0-9]+<[^>]*bonnie-ng\.' "$T/calls" \
		    >"$T/io"
		calls=$(wc -l <"$T/io")
		mine=$(awk -v m="$main" '$1 == m' "$T/io" | wc -l)
		pids=$(awk '{ print $1 }' "$T/io" | sort -u | wc -l)
		diag "pread64 + pwrite64 $calls by $pids processes, $mine by the program"
		[ $st -eq 0 ] && [ "$calls" -ge $((2 * S / C + N)) ] &&
		    [ "$mine" -eq 0 ] && [ "$pids" -gt 8 ]
		check "strace: I/O by the worker processes, none by the program" $?
	else
		env "$NOLSAN" strace -f --seccomp-bpf -qq -y -o "$T/calls" \
		    -e trace=io_uring_enter,pread64,pwrite64 \
		    "$BONNIE" -d "$T" -s 8m -c "$C" -q --direct --iodepth 8 \
		    -p write,read,seeks -S 2 -n "$N" >/dev/null 2>"$T/err"
		st=$?
		# "one" calls submit one request, "more" more than one;
		# "wait" submit none and wait for one.
		set -- $(awk '/io_uring_enter\(/ {
			split($0, a, "io_uring_enter\\(")
			split(a[2], f, ", ")
			if (f[2] == 1) one++; else if (f[2] > 1) more++
			else if (f[3] > 0) wait++
		    } END { print one + 0, more + 0, wait + 0 }' "$T/calls")
		one=$1 more=$2 wait=$3
		sync=$(grep -E 'p(read|write)64\([0-9]+<[^>]*bonnie-ng\.' "$T/calls" |
		    wc -l)
		diag "io_uring_enter submitting one $one, more $more, only waiting $wait; pread64 + pwrite64 $sync"
		[ $st -eq 0 ] && [ "$more" -eq 0 ] &&
		    [ "$one" -ge $((2 * S / C + N)) ] &&
		    [ "$one" -le $((2 * S / C + 2 * N)) ] && [ "$sync" -eq 0 ]
		check "strace: I/O through io_uring_enter, a request a call, no pread/pwrite" $?
		[ $st -eq 0 ] && [ "$wait" -le $((4 * (1 + 8))) ]
		check "strace: a request goes with the wait after it (one call)" $?
	fi
fi

# No queue: strace makes io_uring_setup fail with ENOSYS; in the portable
# build, fork with EAGAIN (no process to spare; the seekers, which fork
# too, are left out there).
why="io_uring_setup: Function not implemented"
inject=io_uring_setup:error=ENOSYS phases=write,rewrite,read,seeks
portable && why="fork: " inject=fork:error=EAGAIN phases=write,rewrite,read
if command -v strace >/dev/null 2>&1; then
	env "$NOLSAN" strace -f --seccomp-bpf -qq -o /dev/null -e trace="${inject%%:*}" \
	    -e inject="$inject" \
	    "$BONNIE" -d "$T" -s 8m -c "$C" -q --direct --iodepth 8 \
	    -p "$phases" -S 2 -n "$N" --verify \
	    --json "$T/f.json" >/dev/null 2>"$T/err"
	st=$?
	check "without io_uring the run still exits 0" $st
	[ $st -eq 0 ] || diag "$(cat "$T/err")"
	ok "each phase ran one request at a time and says why" jqe '
	    [.runs[0].phases | .write, .rewrite, .read, (.seeks // empty) |
	    .queue.depth == 1 and .queue.engine == null and
	    (.queue.fallback | contains($why))] | all' --arg why "$why" \
	    "$T/f.json"
	ok "fallback: samples and checks as at depth 1" jqe --argjson s "$S" \
	    --argjson c "$C" --argjson n "$N" '.runs[0].phases |
	    .read.latency.count == $s / $c and
	    (.seeks == null or .seeks.latency.count == $n) and
	    .read.verify.checked_bytes == $s and .read.verify.bad_chunks == 0' \
	    "$T/f.json"
else
	skip "strace is not installed"
	skip "strace is not installed"
	skip "strace is not installed"
fi
# A worker that dies with a request out (the portable build): the run
# fails, naming the phase and the call, and leaves no file and no process.
if portable; then
	"$BONNIE" -d "$T" -s 1g -c "$C" -q --direct --iodepth 4 --interval 0 \
	    -p write >/dev/null 2>"$T/err" &
	pid=$!
	kids=""
	i=0
	while [ -z "$kids" ] && [ $i -lt 300 ]; do
		kids=$(pgrep -P $pid)
		[ -n "$kids" ] || sleep 0.1
		i=$((i + 1))
	done
	kill -KILL $(echo "$kids" | head -n 1) 2>/dev/null
	wait $pid
	st=$?
	[ $st -eq 1 ] && grep -q "phase write: .*: poll: .* (at byte [0-9]*)$" "$T/err"
	check "a worker killed: exit 1 naming the phase, poll and the oldest request's offset" $?
	[ $st -eq 1 ] || diag "exit $st: $(cat "$T/err")"
	[ -z "$(pgrep -P $pid)" ] && [ -z "$(ls "$T" | grep bonnie-ng\.)" ]
	check "no worker and no test file left" $?
fi
ok "no test file left" no_test_files "$T"

done_testing
