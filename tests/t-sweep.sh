#!/bin/sh
# bonnie-ng sweep end to end: a tiny sweep in a scratch directory (the
# table's shape, the JSON record, the SVG), --max-time and SIGINT keeping
# what was measured, and bad values refused with exit 2, one line and no
# file made.
. tests/lib.sh
scratch

if [ ! -x "$BONNIE" ] || ! "$BONNIE" sweep --min-time 0 -h >/dev/null 2>&1; then
	skip "no bonnie-ng binary with the sweep subcommand"
	done_testing
	exit
fi

# A tiny sweep: 3 sizes x 2 chunks x 2 phases.
mkdir "$T/d"
"$BONNIE" sweep --min-time 0 -d "$T/d" --sizes 1m..4m --chunks 4k,16k \
    --phases write,read --json "$T/s.json" --svg "$T/s.svg" \
    >"$T/out" 2>"$T/err"
check "tiny sweep exits 0" $?
diag "$(cat "$T/out" "$T/err")"
ok "no test file left behind" no_test_files "$T/d"

# Each table: a title, a header of "size" and two chunks, three rows of a
# size and two values.
shape=$(awk '
	/, K\/sec$/ { t++; inrow = 1; next }
	inrow && NF == 0 { inrow = 0; next }
	inrow && $1 == "size" { hdr = hdr NF " "; next }
	inrow { rows[t]++; if (NF != 3) bad++ }
	END { printf "%d tables, headers %s, rows %d %d, bad %d", t, hdr,
	    rows[1], rows[2], bad }' "$T/out")
diag "$shape"
[ "$shape" = "2 tables, headers 3 3 , rows 3 3, bad 0" ]
check "two tables of 3 sizes x 2 chunks" $?
grep -q '^block write, K/sec$' "$T/out" && grep -q '^block read, K/sec$' \
    "$T/out"
check "tables for block write and block read" $?
grep -q '^Knees (a change of more than 30% that stays, between precise points that differ beyond their spread):$' "$T/out"
check "the knees are reported" $?

# The plan, on stderr before the first point: 6 points, and the bytes
# they write, 1 + 2 + 4 MiB for each of the two chunks; then, after the
# first point, an estimate from that point's time: every phase here
# scales with the size, so 14 times it.
sed -n 1p "$T/err" | grep -q '^bonnie-ng: sweep: 6 points (3 sizes x 2 chunks), 14 MiB to write in all; the time is estimated after the first point$'
check "the plan comes first: points, axes and bytes to write" $?
est=$(sed -n 2p "$T/err" | sed -n 's/^bonnie-ng: sweep: point 1 took \([0-9.]*\) s; all 6 points should take about \([0-9.]*\) s.*/\1 \2/p')
diag "point 1 and the estimate: $est"
echo "$est" | awk 'NF == 2 && $1 > 0 { d = $2 - 14 * $1; if (d < 0) d = -d;
    exit !(d <= 0.008) } { exit 1 }'
check "the estimate follows point 1: 14 times its time ($est)" $?
if command -v jq >/dev/null 2>&1; then
	jq -e '([.points[].phases.write.bytes] | add) == 14 * 1048576' \
	    "$T/s.json" >/dev/null
	check "the plan's bytes are what the points wrote" $?
	t1=${est%% *}
	jq -e --argjson t1 "${t1:-0}" '[.points[0].phases[] | select(. !=
	    null) | .elapsed_s] | add as $s | $s > 0 and $s <= $t1' \
	    "$T/s.json" >/dev/null
	check "point 1's time is measured: at least its phases' time" $?
else
	skip "jq is not installed"
	skip "jq is not installed"
fi
"$BONNIE" sweep --min-time 0 -d "$T/d" -q --sizes 1m..2m --chunks 4k --phases write \
    >/dev/null 2>"$T/qerr"
[ $? -eq 0 ] && ! grep -q 'sweep: .*point' "$T/qerr"
check "-q: no plan and no estimate" $?

if command -v jq >/dev/null 2>&1; then
	jq -e '.schema == "bonnie-ng-sweep/1" and (.points | length) == 6 and
	    ([.points[] | select(.phases.write != null and
	        .phases.read != null and .phases.rewrite == null)] |
	        length) == 6 and
	    ([.points[].size_bytes] | unique) == [1048576, 2097152, 4194304] and
	    ([.points[].chunk] | unique) == [4096, 16384] and
	    .options.phases == ["write", "read"] and
	    .options.cache == "keep" and .stopped == null and
	    (.points[0].phases.write.rate > 0) and
	    (.knees | type) == "array"' "$T/s.json" >/dev/null
	check "JSON: 6 points with write and read, sizes, chunks, phases" $?
else
	skip "jq is not installed"
fi

# The whole record follows doc/schema.json's sweep_record, whose system,
# target and options objects and every phase object are a single run's.
schema_ok "JSON: the whole record matches doc/schema.json's sweep_record" \
    -d sweep_record "$T/s.json"

if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$T/s.svg"
	check "SVG is well-formed XML" $?
	n=$(xmllint --xpath 'count(//*[local-name()="polyline"])' "$T/s.svg")
	[ "$n" = 4 ]
	check "SVG: one polyline per chunk per phase ($n)" $?
else
	skip "xmllint is not installed"
	skip "xmllint is not installed"
fi
grep -q 'href' "$T/s.svg"
check "SVG has no external references" $((! $?))

# --max-time: the seeks phase takes at least a second, so a sweep of six
# points stops after the first one or two and keeps them.
"$BONNIE" sweep --min-time 0 -d "$T/d" --sizes 1m..4m --chunks 4k,16k --phases seeks \
    --max-time 1 --json "$T/m.json" >"$T/out" 2>"$T/err"
check "--max-time exits 0" $?
grep -q 'stopped by --max-time 1 after [12] of 6 points' "$T/err"
check "--max-time says where it stopped" $?
if command -v jq >/dev/null 2>&1; then
	jq -e '.stopped == "max-time" and (.points | length) >= 1 and
	    (.points | length) < 6 and .points[0].phases.seeks.rate > 0' \
	    "$T/m.json" >/dev/null
	check "--max-time keeps the points measured" $?
else
	skip "jq is not installed"
fi

# SIGINT: stop, keep the points done, remove the test file.
"$BONNIE" sweep --min-time 0 -d "$T/d" --sizes 1m..4m --chunks 4k,16k --phases seeks \
    --json "$T/i.json" >"$T/out" 2>"$T/err" &
pid=$!
# Once the record holds the first point (it is rewritten after each), so
# that a loaded machine cannot make the signal come before any point.
i=0
until tr -d ' \n' <"$T/i.json" 2>/dev/null | grep -q '"points":\[{' ||
    [ $i -ge 600 ]; do
	sleep 0.1; i=$((i + 1))
done
kill -INT $pid
wait $pid
status=$?
[ $status -eq 130 ]
check "SIGINT: exit 130 ($status)" $?
grep -q 'interrupted by SIGINT after [0-9] of 6 points' "$T/err"
check "SIGINT: says so" $?
ok "SIGINT: no test file left behind" no_test_files "$T/d"
if command -v jq >/dev/null 2>&1; then
	jq -e '.stopped == "SIGINT" and (.points | length) >= 1 and
	    (.points | length) < 6 and
	    ([.points[] | select(.interrupted == null) |
	        .phases.seeks.rate > 0] | all)' "$T/i.json" >/dev/null
	check "SIGINT: the points measured are kept" $?
else
	skip "jq is not installed"
fi

# A point that fails (here the file size limit, 3 or 6 MiB depending on
# the shell's unit for ulimit -f) stops the sweep with exit 1 and its
# error as the last line, keeping the points before it.
sh -c 'ulimit -f 6144 && exec "$@"' sh "$BONNIE" sweep --min-time 0 -d "$T/d" \
    --sizes 1m..16m --chunks 4k --phases write,read --json "$T/e.json" \
    >"$T/out" 2>"$T/err"
status=$?
[ $status -eq 1 ] && [ "$(grep -c 'File too large' "$T/err")" -eq 1 ] &&
    tail -n 1 "$T/err" | grep -q '^bonnie-ng: phase write: .*File too large'
check "a failing point: exit 1, the error last and once ($status)" $?
diag "$(cat "$T/err")"
ok "a failing point: no test file left behind" no_test_files "$T/d"
if command -v jq >/dev/null 2>&1; then
	jq -e '.stopped == "error" and (.points | length) >= 3 and
	    .points[-1].error.errno == 27 and
	    (.points[:-1] | all(.error == null and .phases.read.rate > 0))' \
	    "$T/e.json" >/dev/null
	check "a failing point: the points before it are kept" $?
else
	skip "jq is not installed"
fi

# The default top is twice RAM, capped by half the free space: on a small
# tmpfs with --ram 1g the sizes stop at 2m and the cap is said.
if is_root && mkdir "$T/small" && mount -t tmpfs -o size=6m tmpfs \
    "$T/small" 2>/dev/null; then
	T_MOUNTS="$T/small"
	"$BONNIE" sweep --min-time 0 -d "$T/small" --sizes 1m --chunks 4k --phases write \
	    --ram 1g --json "$T/c.json" -q >"$T/out" 2>"$T/err"
	check "capped sweep exits 0" $?
	grep -q 'sizes capped at [0-9]* MiB, half the free space in' "$T/err"
	check "the cap is said on stderr" $?
	if command -v jq >/dev/null 2>&1; then
		jq -e '.sweep.sizes == [1048576, 2097152] and .sweep.capped' "$T/c.json" \
		    >/dev/null
		check "capped: sizes 1m and 2m" $?
	else
		skip "jq is not installed"
	fi
	scratch_umount "$T/small"
else
	skip "needs root to mount a small tmpfs"
	skip "needs root to mount a small tmpfs"
	skip "needs root to mount a small tmpfs"
fi

# Bad values: exit 2, one line on stderr naming the command and the
# option, nothing made.
mkdir "$T/bad"
bad() {
	want=$1; shift
	"$BONNIE" sweep --min-time 0 -d "$T/bad" --json "$T/bad/x.json" "$@" \
	    >"$T/out" 2>"$T/err"
	status=$?
	lines=$(wc -l <"$T/err" | tr -d ' ')
	[ $status -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$T/out" ] &&
	    grep -q '^bonnie-ng: sweep: ' "$T/err" &&
	    grep -q -- "$want" "$T/err" && [ -z "$(ls -A "$T/bad")" ]
	check "bad: $* (exit $status, $lines line: $(cat "$T/err"))" $?
}
bad "--sizes: '1g..64m'" --sizes 1g..64m
bad "smaller than one chunk" --sizes 4k..1m --chunks 16k
bad "--phases: unknown phase 'bogus'" --phases write,bogus
bad "--sizes" --sizes junk
bad "--chunks: '3k'" --chunks 3k
bad "--knee" --knee 0
bad "--cache: 'warm'" --cache=warm
bad "unknown option" --frobnicate
bad "is more than the" --sizes 1m..4096t
bad "sweep: --json: " --sizes 1m..1m --json "$T/bad/no/x.json"
# --cache=global without the right to drop the caches: as nobody.
if portable; then
	skip "--cache=global as nobody: the portable build drops no global cache"
elif is_root && command -v setpriv >/dev/null 2>&1; then
	U=$(mktemp -d "${TMPDIR:-/tmp}/bonnie-ng-global.XXXXXX")
	chmod 777 "$U"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$BONNIE" \
	    sweep -d "$U" --sizes 1m..1m --chunks 4k --cache=global \
	    --json "$U/x.json" >"$T/out" 2>"$T/err"
	status=$?
	[ $status -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	    [ ! -s "$T/out" ] && [ -z "$(ls -A "$U")" ] &&
	    grep -q '^bonnie-ng: sweep: invalid value for --cache: global: /proc/sys/vm/drop_caches: Permission denied' "$T/err"
	check "--cache=global as nobody: exit 2, one line (exit $status: $(cat "$T/err"))" $?
	rm -rf "$U"
else
	skip "not root or no setpriv: cannot run as nobody"
fi
"$BONNIE" sweep --min-time 0 --sizes 1m..2m >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/err" | tr -d ' ')" -eq 1 ]
check "no -d: exit 2 and one line" $?

# --interval: a sweep passes it to every run of every point; 0 is none.
if command -v jq >/dev/null 2>&1; then
	"$BONNIE" sweep --min-time 0 -d "$T/d" -q --sizes 1m..2m --chunks 4k \
	    --phases write --interval 10ms --json "$T/tl.json" >/dev/null 2>&1
	jq -e '[.points[].phases.write.kernel.timeline.interval_s] |
	    length == 2 and all(. == 0.01)' "$T/tl.json" >/dev/null
	check "sweep --interval 10ms: every point's phase has a timeline at 10 ms" $?
	"$BONNIE" sweep --min-time 0 -d "$T/d" -q --sizes 1m..2m --chunks 4k \
	    --phases write --interval 0 --json "$T/tl0.json" >/dev/null 2>&1
	jq -e '[.points[].phases.write.kernel | has("timeline") and
	    .timeline != null] | length == 2 and all(. == false)' \
	    "$T/tl0.json" >/dev/null
	check "sweep --interval 0: no point has a timeline" $?
else
	skip "jq is not installed"
	skip "jq is not installed"
fi
"$BONNIE" sweep -d "$T/d" --sizes 1m..2m --interval 5ms --json "$T/bad.json" \
    >/dev/null 2>"$T/bad.err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] && [ ! -e "$T/bad.json" ]
check "sweep --interval below 10 ms: one line, exit 2, no record" $?

done_testing
