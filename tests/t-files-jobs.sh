#!/bin/sh
# -j with the file creation phases: each worker makes its own directory
# (mdtest's unique-directory mode) and its own set of names there (strace:
# one mkdir of a bonnie-ng-files.* directory per worker, each worker's
# creates all the same 1024 names, which only distinct directories
# allow); the aggregate is the files of all workers over the span, from
# the earliest start to the latest end, checked against the per-worker
# figures of the record; no directory left.
. tests/lib.sh
scratch
chmod 755 "$T"
STRACE_ENV="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
ALL=create,stat,delete,rcreate,rstat,rdelete

no_file_dirs() {
	[ -z "$(find "$1" -maxdepth 1 -name 'bonnie-ng-files.*' 2>/dev/null)" ]
}

"$BONNIE" -q -d "$T" -j 3 --files 1 -p $ALL --json "$T/j.json" \
    >"$T/out" 2>"$T/err"
st=$?
check "-j 3 --files 1: exit 0 (got $st)" $st
[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
check "-j 3: no directory left" $(no_file_dirs "$T"; echo $?)
for ph in create stat delete rcreate rstat rdelete; do
	# ops = the sum of the workers'; elapsed = latest end - earliest
	# start (start_s counts from the earliest, so that is 0); rate =
	# ops / elapsed.
	r=$(jq --arg p $ph '.runs[0].phases[$p] |
	    (.per_worker | length == 3 and all(.ops == 1024)) and
	    .ops == ([.per_worker[].ops] | add) and
	    ([.per_worker[].start_s] | min) == 0 and
	    ((.elapsed_s - ([.per_worker[].end_s] | max)) | fabs) < 1e-6 and
	    ((.rate - .ops / .elapsed_s) | fabs) < 1e-6 * .rate and
	    .rate <= ([.per_worker[].rate] | add) * 1.000001' "$T/j.json")
	check "$ph: 3072 files over the span, from the per-worker figures" \
	    $([ "$r" = true ]; echo $?)
done
check "-j 3: the record's options say 1024 files per worker set" \
    $(jq -e '.options.jobs == 3 and .options.files.files == 1024' \
    "$T/j.json" >/dev/null; echo $?)

if command -v strace >/dev/null 2>&1; then
	# One log per process (-ff): no call split between two lines.
	env "$STRACE_ENV" strace -ff --seccomp-bpf -qq -o "$T/st" -e trace=mkdir,openat \
	    "$BONNIE" -q -d "$T" -j 3 --files 1 -p create,rcreate \
	    >/dev/null 2>"$T/err"
	st=$?
	check "-j 3 under strace: exit 0 (got $st)" $st
	grep -l 'mkdir(".*bonnie-ng-files\.[^"]*", 0700) = 0' "$T"/st.* \
	    >"$T/mkp"
	grep -h 'mkdir(".*bonnie-ng-files\.[^"]*", 0700) = 0' "$T"/st.* |
	    sed 's/.*mkdir("\([^"]*\)".*/\1/' | sort -u >"$T/mk"
	n=$(wc -l <"$T/mkp")
	d=$(wc -l <"$T/mk")
	check "one new directory per worker: 3 pids, 3 names (got $n, $d)" \
	    $([ "$n" = 3 ] && [ "$d" = 3 ]; echo $?)
	# Each worker created the names 0..1023 twice (create, rcreate).
	# (musl adds O_LARGEFILE, which strace shows before O_NOFOLLOW.)
	for f in $(cat "$T/mkp"); do
		grep 'O_CREAT|O_EXCL|.*O_NOFOLLOW' "$f" | grep -c -v ' = -1 '
	done >"$T/per"
	check "each worker made its own 2048 files (got $(tr '\n' ' ' <"$T/per"))" \
	    $([ "$(sort -u "$T/per")" = 2048 ] &&
	    [ "$(wc -l <"$T/per")" -eq 3 ]; echo $?)
	u=$(cat "$T"/st.* | grep 'O_CREAT|O_EXCL|.*O_NOFOLLOW' |
	    sed 's/.*"\([0-9]\{10\}\)".*/\1/' | sort -u | wc -l)
	check "the workers used the same 1024 names (got $u)" \
	    $([ "$u" = 1024 ]; echo $?)
	check "no EEXIST: no worker saw another's files" \
	    $(! cat "$T"/st.* | grep -q 'O_CREAT|O_EXCL.*EEXIST'; echo $?)
	check "-j 3 under strace: no directory left" $(no_file_dirs "$T"; echo $?)
else
	i=0
	while [ $i -lt 6 ]; do skip "strace not installed"; i=$((i + 1)); done
fi
done_testing
