#!/bin/sh
# Output files and streams (issue 15, groups 2, 3 and 6): every output
# file (--json; sweep's --json and --svg) is made before the first phase,
# and a bad one refused with exit 2 before any work; a write that fails at
# the end still leaves the report printed and exits 1; sweep checks its
# standard output; output files are never written through a symbolic link
# and replace an existing file only when the user could have written it
# anyway; compare --fail-on with an empty list is a usage error.
. tests/lib.sh
. tests/fault/lib.sh
scratch
chmod 755 "$T"
# --interval 0: no timeline sampler (a fork and a pipe per run, a third
# of a short run's CPU under ASan); the outputs are the subject here.
RUN="-q -s 256k -c 4k -n 10 --cache=keep --no-space-check -p write --interval 0"
# --min-time 0: one run of the point (a point under the default 0.5 s is
# run again up to 64 times, which only costs time here).
SWEEP="-q --sizes 256k..256k --chunks 4k --cache=keep -n 10 --min-time 0 --interval 0"

# refused DESC: exit 2, one line, no phase started, no test file.
refused() {
	_r=0
	[ $st -eq 2 ] && one_line "$T/err" || _r=1
	check "$1: exit 2, one line (got $st)" $_r
	[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
	check "$1: nothing measured, no test file" \
	    $([ ! -s "$T/out" ] && no_test_files "$T/d"; echo $?)
}

mkdir "$T/d"
for cmd in run sweep; do
	if [ $cmd = run ]; then
		set -- "$BONNIE" -d "$T/d" $RUN
	else
		set -- "$BONNIE" sweep -d "$T/d" $SWEEP
	fi
	"$@" --json "$T/missing/r.json" >"$T/out" 2>"$T/err"; st=$?
	refused "$cmd --json in a missing directory"
	grep -q "No such file or directory" "$T/err"
	check "$cmd --json in a missing directory: says so" $?
	"$@" --json "$T" >"$T/out" 2>"$T/err"; st=$?
	refused "$cmd --json naming a directory"
	"$@" --json /dev/full >"$T/out" 2>"$T/err"; st=$?
	refused "$cmd --json /dev/full"
	grep -q "a device" "$T/err"
	check "$cmd --json /dev/full: says it is a device" $?
	"$@" --json /dev/null >"$T/out" 2>"$T/err"; st=$?
	check "$cmd --json /dev/null: allowed (got $st)" \
	    $([ $st -eq 0 ]; echo $?)
	# The symlink, to a file and to a missing one (a planted link).
	echo keep >"$T/victim"
	ln -sf "$T/victim" "$T/link"
	ln -sf "$T/nothing" "$T/dangling"
	for l in link dangling; do
		"$@" --json "$T/$l" >"$T/out" 2>"$T/err"; st=$?
		refused "$cmd --json through a symlink ($l)"
		grep -q "a symbolic link" "$T/err"
		check "$cmd --json through a symlink ($l): says so" $?
	done
	check "$cmd --json: the link's target is untouched" \
	    $([ "$(cat "$T/victim")" = keep ] && [ ! -e "$T/nothing" ]; echo $?)
	rm -f "$T/link" "$T/dangling"
	# Other hard links: not replaced.
	echo keep >"$T/h1"
	ln "$T/h1" "$T/h2"
	"$@" --json "$T/h2" >"$T/out" 2>"$T/err"; st=$?
	refused "$cmd --json with another hard link"
	check "$cmd --json with another hard link: untouched" \
	    $([ "$(cat "$T/h1")" = keep ]; echo $?)
	rm -f "$T/h1" "$T/h2"
	# An existing file of the user's own is replaced.
	echo old >"$T/mine.json"
	"$@" --json "$T/mine.json" >"$T/out" 2>"$T/err"; st=$?
	check "$cmd --json over the user's own file: exit 0 (got $st)" \
	    $([ $st -eq 0 ]; echo $?)
	check "$cmd --json over the user's own file: replaced" \
	    $(head -c 1 "$T/mine.json" | grep -q '{'; echo $?)
	# A FIFO is written to.
	rm -f "$T/fifo" "$T/fifo.out"
	mkfifo "$T/fifo"
	cat "$T/fifo" >"$T/fifo.out" &
	"$@" --json "$T/fifo" >"$T/out" 2>"$T/err"; st=$?
	wait
	check "$cmd --json into a FIFO: exit 0 and the record came through" \
	    $([ $st -eq 0 ] && grep -q '"schema"' "$T/fifo.out"; echo $?)
	# A terminal is written to (script(1) gives the run one).
	if command -v script >/dev/null 2>&1; then
		script -qec "$* --json /dev/tty" /dev/null >"$T/tty.out" \
		    2>&1 </dev/null
		st=$?
		check "$cmd --json to a terminal: exit 0 and the record came through (got $st)" \
		    $([ $st -eq 0 ] && grep -q '"schema"' "$T/tty.out"; echo $?)
	else
		skip "$cmd --json to a terminal: no script(1)"
	fi
	# The whole output on a full device: the report is lost, exit 1.
	"$@" >/dev/full 2>"$T/err"; st=$?
	check "$cmd >/dev/full: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
	grep -q "standard output: No space left on device" "$T/err"
	check "$cmd >/dev/full: says so" $?
	check "$cmd >/dev/full: no test file left" \
	    $(no_test_files "$T/d"; echo $?)
done

# sweep: a bad --svg after a good --json leaves no empty --json behind.
rm -f "$T/s.json"
"$BONNIE" sweep -d "$T/d" $SWEEP --json "$T/s.json" --svg "$T/missing/s.svg" \
    >"$T/out" 2>"$T/err"
st=$?
refused "sweep with a bad --svg"
check "sweep with a bad --svg: the --json it made is removed" \
    $([ ! -e "$T/s.json" ]; echo $?)

# In a sticky directory, another user's file is not replaced (root: the
# file is given to uid 65534); as that user, root's file neither.
if is_root && have setpriv; then
	mkdir "$T/sticky"
	chmod 1777 "$T/sticky"
	echo planted >"$T/sticky/p.json"
	chown 65534:65534 "$T/sticky/p.json"
	chmod 666 "$T/sticky/p.json"
	"$BONNIE" -d "$T/d" $RUN --json "$T/sticky/p.json" >"$T/out" \
	    2>"$T/err"
	st=$?
	refused "another user's file in a sticky directory"
	check "another user's file in a sticky directory: untouched" \
	    $([ "$(cat "$T/sticky/p.json")" = planted ]; echo $?)
	echo root >"$T/sticky/r.json"
	chmod 644 "$T/sticky/r.json"
	mkdir "$T/nd" && chmod 777 "$T/nd"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$BONNIE" \
	    -d "$T/nd" $RUN --json "$T/sticky/r.json" >"$T/out" 2>"$T/err"
	st=$?
	check "a file the user may not write: exit 2 (got $st)" \
	    $([ $st -eq 2 ]; echo $?)
	grep -q "Permission denied" "$T/err"
	check "a file the user may not write: Permission denied" $?
	check "a file the user may not write: untouched" \
	    $([ "$(cat "$T/sticky/r.json")" = root ]; echo $?)
else
	for i in 1 2 3 4 5 6; do
		skip "sticky directory checks: need root and setpriv"
	done
fi

# A record that cannot be written at the end: the report is still printed,
# exit 1 (a 16 KiB tmpfs, filled after the file is opened).
if is_root && [ -n "$INJECT" ] && mkdir "$T/small" &&
    mount -t tmpfs -o size=16k tmpfs "$T/small" 2>/dev/null; then
	T_MOUNTS="$T/small"
	for cmd in run sweep; do
		rm -f "$T/small/"*
		if [ $cmd = run ]; then
			set -- "$BONNIE" -d "$T/d" -s 256k -c 4k -n 10 \
			    --cache=keep --no-space-check -p write
		else
			set -- "$BONNIE" sweep -d "$T/d" --sizes 256k..256k -n 10 \
			    --chunks 4k --cache=keep --min-time 0
		fi
		# Fill the file system once the run is under way.
		# The run is slowed on its test file (not the record) so that
		# the fill comes first.
		(BN_FAULT=write:1+:sleep=10000 LD_PRELOAD=$INJECT \
		    "$@" --json "$T/small/r.json" >"$T/out" 2>"$T/err" &
		    echo $! >"$T/pid"; wait $!; echo $? >"$T/st") &
		i=0
		while [ -z "$(ls -A "$T/small")" ] && [ $i -lt 100 ]; do
			sleep 0.02; i=$((i + 1))
		done
		dd if=/dev/zero of="$T/small/fill" bs=4k count=16 \
		    2>/dev/null
		wait
		st=$(cat "$T/st")
		check "$cmd --json on a full file system: exit 1 (got $st)" \
		    $([ "$st" -eq 1 ]; echo $?)
		grep -q "\-\-json: $T/small/r.json: No space left on device" \
		    "$T/err"
		r=$?
		check "$cmd --json on a full file system: says so" $r
		[ $r -eq 0 ] || sed 's/^/#   /' "$T/err"
		check "$cmd --json on a full file system: the report is printed" \
		    $(grep -q "Machine\|K/sec" "$T/out"; echo $?)
		rm -f "$T/small/fill"
		# The record written after the phases (a run's) or the points
		# (a sweep's) finished before the disk filled may stay: whole,
		# never cut, a run's marked unfinished.
		check "$cmd --json on a full file system: no empty or cut file left" \
		    $([ -z "$(ls -A "$T/small")" ] || {
		    [ "$(ls -A "$T/small")" = r.json ] &&
		    jq -e '.schema == "bonnie-ng-sweep/1" or
		    (.runs[0].error.message | startswith("unfinished: "))' \
		    "$T/small/r.json" >/dev/null 2>&1; }; echo $?)
	done
	scratch_umount "$T/small"
else
	for i in 1 2 3 4 5 6 7 8; do
		skip "full file system for --json: needs root, tmpfs, libinject"
	done
fi

# Issue 26.  A symbolic link that another user owns in a sticky,
# world-writable directory is not followed to reach the output, whatever
# fs.protected_symlinks says (set to 0 for the test, then restored).
PS=/proc/sys/fs/protected_symlinks
if is_root && [ -w $PS ] && machine_set $PS 0; then
	mkdir "$T/psd" "$T/psv"
	chmod 1777 "$T/psd"
	echo precious >"$T/psv/out"
	ln -s "$T/psv" "$T/psd/dl"
	chown -h 65534:65534 "$T/psd/dl"
	for v in "run --json" "sweep --json" "sweep --svg"; do
		set -- ${v% *}; c=$1 o=${v#* }
		if [ $c = run ]; then
			set -- "$BONNIE" -d "$T/d" $RUN
		else
			set -- "$BONNIE" sweep -d "$T/d" $SWEEP
		fi
		for leaf in out new; do
			"$@" $o "$T/psd/dl/$leaf" >"$T/out" 2>"$T/err"; st=$?
			refused "$v through another user's link in a sticky directory ($leaf)"
			check "$v through another user's link: says so" \
			    $(grep -q "another user owns in a sticky" "$T/err"; echo $?)
		done
		check "$v through another user's link: the target is untouched" \
		    $([ "$(cat "$T/psv/out")" = precious ] &&
			[ ! -e "$T/psv/new" ]; echo $?)
	done
	# The user's own link there is followed, as the kernel would.
	ln -s "$T/psv" "$T/psd/mine"
	"$BONNIE" -d "$T/d" $RUN --json "$T/psd/mine/new" >"$T/out" 2>"$T/err"
	st=$?
	check "--json through root's own link in a sticky directory: written (got $st)" \
	    $([ $st -eq 0 ] && [ -s "$T/psv/new" ]; echo $?)
	machine_restore
else
	for i in $(seq 1 22); do
		skip "protected symlinks: need root and $PS"
	done
fi

# The same file for sweep's --json and --svg, however spelt: refused.
mkdir -p "$T/o"
"$BONNIE" sweep -d "$T/d" $SWEEP --json "$T/o/x" --svg "$T/o/./x" \
    >"$T/out" 2>"$T/err"; st=$?
refused "sweep --json and --svg naming one file"
check "sweep --json and --svg naming one file: says so, nothing made" \
    $(grep -q "the same file for both" "$T/err" && [ ! -e "$T/o/x" ]; echo $?)

# --json - is standard output, never a file named "-".
(cd "$T/o" && "$BONNIE" -d "$T/d" $RUN --json - >"$T/out" 2>"$T/err")
st=$?
check "run --json -: exit 0 (got $st)" $([ $st -eq 0 ]; echo $?)
check "run --json -: the record on standard output, no file '-'" \
    $(have jq && jq -e .runs "$T/out" >/dev/null && [ ! -e "$T/o/-" ]; echo $?)
(cd "$T/o" && "$BONNIE" -d "$T/d" $RUN -o csv --json - >"$T/out" 2>"$T/err")
st=$?
refused "run -o csv --json -"
(cd "$T/o" && "$BONNIE" sweep -d "$T/d" $SWEEP --json - >"$T/out" 2>"$T/err")
st=$?
check "sweep --json -: the record alone on standard output, no file '-' (got $st)" \
    $([ $st -eq 0 ] && have jq && jq -e . "$T/out" >/dev/null &&
	[ ! -e "$T/o/-" ]; echo $?)
(cd "$T/o" && "$BONNIE" sweep -d "$T/d" $SWEEP --svg - >"$T/out" 2>"$T/err")
st=$?
check "sweep --svg -: the SVG alone on standard output (got $st)" \
    $([ $st -eq 0 ] && xmllint --noout "$T/out" && [ ! -e "$T/o/-" ]; echo $?)
(cd "$T/o" && "$BONNIE" sweep -d "$T/d" $SWEEP --json - --svg - >"$T/out" 2>"$T/err"); st=$?
refused "sweep --json - --svg -"

# pp's report holds standard output: its --json - is refused (pp's usage
# errors exit 1, as bonnie++'s do), never a file named "-".
(cd "$T/o" && "$BONNIE" pp -d "$T/d" -s 1 -n 0 --json - >"$T/out" 2>"$T/err")
st=$?
check "pp --json -: refused, no file '-' (got $st)" \
    $([ $st -ne 0 ] && grep -q -- "--json -: standard output carries the report" "$T/err" &&
	[ ! -e "$T/o/-" ] && no_test_files "$T/d"; echo $?)

# The kernel's interface file systems are refused up front.
for f in /proc/sys/vm/drop_caches /proc/self/new.json /sys/kernel/new.json; do
	[ -d "${f%/*}" ] || { skip "$f: no such directory"; skip "$f"; continue; }
	"$BONNIE" -d "$T/d" $RUN --json "$f" >"$T/out" 2>"$T/err"; st=$?
	refused "--json $f"
done
"$BONNIE" sweep -d "$T/d" $SWEEP --svg /proc/self/x.svg >"$T/out" 2>"$T/err"
st=$?
refused "sweep --svg /proc/self/x.svg"

# A FIFO nobody reads: refused at once, not a hang before the run.
mkfifo "$T/o/lonely"
for c in run sweep; do
	if [ $c = run ]; then
		set -- "$BONNIE" -m "$TAG" -d "$T/d" $RUN
	else
		set -- "$BONNIE" sweep -m "$TAG" -d "$T/d" $SWEEP
	fi
	"$@" --json "$T/o/lonely" >"$T/out" 2>"$T/err" &
	wait_exit $! 20
	refused "$c --json to a FIFO nobody reads"
	check "$c --json to a FIFO nobody reads: says so" \
	    $(grep -q "a FIFO that nobody reads" "$T/err"; echo $?)
done

# No temporary lies beside the record during the run (one killed by
# SIGKILL would leave it): the directory is empty while the run writes
# (the injector slowed its first write), and holds the record alone at
# the end.
if [ -n "$INJECT" ]; then
	rm -f "$T/o/"* "$T/o/".[!.]* "$T/fault.log"
	BN_FAULT=write:1+:sleep=20000 BN_FAULT_LOG=$T/fault.log \
	    LD_PRELOAD=$INJECT "$BONNIE" -m "$TAG" \
	    -d "$T/d" $RUN --json "$T/o/gone.json" >"$T/out" 2>"$T/err" &
	pid=$!
	faulted
	check "during the run: nothing beside the record's path ($(ls -A "$T/o" | tr '\n' ' '))" \
	    $([ -z "$(ls -A "$T/o")" ]; echo $?)
	wait_exit $pid 60
	check "the record written at the end: exit 0 (got $st)" \
	    $([ $st -eq 0 ]; echo $?)
	check "the record written at the end: it alone in its directory" \
	    $([ "$(ls -A "$T/o")" = gone.json ] &&
	    jq -e .runs "$T/o/gone.json" >/dev/null; echo $?)
else
	for i in 1 2 3; do skip "no preload library"; done
fi

# compare --fail-on that names no column is a usage error.
F=tests/fixtures
for v in "" "," ",,"; do
	"$BONNIE" compare --fail-on "$v" $F/ng-base.json $F/ng-slower.json \
	    >"$T/out" 2>"$T/err"
	st=$?
	_r=0
	[ $st -eq 2 ] && grep -q "names no column" "$T/err" || _r=1
	check "compare --fail-on '$v': exit 2, names no column (got $st)" $_r
done
"$BONNIE" compare --fail-on write $F/ng-base.json $F/ng-slower.json \
    >"$T/out" 2>"$T/err"
st=$?
check "compare --fail-on write on a regression: still exit 1 (got $st)" \
    $([ $st -eq 1 ]; echo $?)

done_testing
