#!/bin/sh
# The file creation phases (--files): bad values exit 2; each phase's
# creates, stats and unlinks counted with strace; numeric order in the
# sequential phases, a random one (and a different one each) in the random
# phases; the CSV fields 21-37 and 44-49 read by bon_csv2txt and
# bon_csv2html; no directory left after a run, after SIGINT in each phase,
# or out of inodes on a small ext4 image; planted names never followed.
# run.sh: long: among the longest in CI; started first on a clean clone
. tests/lib.sh
scratch
chmod 755 "$T"
ALL=create,stat,delete,rcreate,rstat,rdelete
# LeakSanitizer cannot run under ptrace (strace): leaks are checked in the
# runs without strace.
STRACE_ENV="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# no_file_dirs DIR: DIR holds no bonnie-ng-files.* tree.
no_file_dirs() {
	[ -z "$(find "$1" -maxdepth 1 -name 'bonnie-ng-files.*' 2>/dev/null)" ]
}

# Bad values: exit 2 and one line.
for v in 0 x -1 65537 1:1k:2k 1:2g 1:0:0:0 1:1:1:100001 1:2:1:4:5 '' \
    1:: 1:k; do
	"$BONNIE" -q -d "$T" --files "$v" -p create >"$T/out" 2>"$T/err"
	st=$?
	check "--files '$v': exit 2 (got $st)" $([ $st -eq 2 ]; echo $?)
done
check "bad --files: no directory made" $(no_file_dirs "$T"; echo $?)

# A plain run of the six phases, CSV.
"$BONNIE" -q -m files -d "$T" --files 1:4k:1k:3 -p "$ALL" -o csv \
    >"$T/csv" 2>"$T/err"
st=$?
check "six phases: exit 0 (got $st)" $([ $st -eq 0 ]; echo $?)
[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
check "six phases: no directory left" $(no_file_dirs "$T"; echo $?)
check "CSV: 50 fields" $([ "$(awk -F, '{ print NF }' "$T/csv")" = 50 ]; echo $?)
check "CSV: fields 21-25 as bonnie++ writes them" \
    $([ "$(cut -d, -f22-26 "$T/csv")" = "1,4096,1024,,3" ]; echo $?)
# Six rates and their %CPU; a %CPU may be "+++", a doubtful figure (more
# CPU than the phase's thread could use: a phase of 1024 files can be
# over in a few milliseconds), as t-pp allows in bonnie++'s lines.
n=$(cut -d, -f27-38 "$T/csv" | tr , '\n' | awk '
    { w = NR % 2 ? "^[0-9]+$" : "^([0-9]+|[+][+][+])$" }
    $0 ~ w { n++ } END { print n + 0 }')
check "CSV: 12 figures in fields 26-37 (got $n: $(cut -d, -f27-38 "$T/csv"))" \
    $([ "$n" = 12 ]; echo $?)
n=$(cut -d, -f45-50 "$T/csv" | tr , '\n' | grep -c '^[0-9.]*[mun]*s$')
check "CSV: 6 latencies in fields 44-49 (got $n)" $([ "$n" = 6 ]; echo $?)
if command -v bon_csv2txt >/dev/null 2>&1; then
	bon_csv2txt <"$T/csv" >"$T/txt" 2>&1
	check "bon_csv2txt shows the file creation row" \
	    $(grep -q '^files  *1:4096:1024:3  *[0-9]' "$T/txt"; echo $?)
	bon_csv2html <"$T/csv" >"$T/html" 2>&1
	f=$(cut -d, -f27 "$T/csv")
	check "bon_csv2html shows the create rate" \
	    $(grep -q ">$f<" "$T/html"; echo $?)
else
	skip "bon_csv2txt not installed"
	skip "bon_csv2html not installed"
fi

# Text: the block under the classic rows.
"$BONNIE" -q -m files -d "$T" --files 1 -p "$ALL" -L >"$T/out" 2>"$T/err"
check "text: the Sequential Create header" \
    $(grep -q 'Sequential Create.*Random Create' "$T/out"; echo $?)
check "text: the row" $(grep -q '^files  *1  *[0-9]' "$T/out"; echo $?)

# strace: the calls of each phase, and the orders.
if command -v strace >/dev/null 2>&1; then
	env "$STRACE_ENV" strace -f --seccomp-bpf -o "$T/st" -e trace=openat,newfstatat,statx,fstatat64,unlinkat \
	    "$BONNIE" -q -d "$T" --files 1:100:1 -p "$ALL" >/dev/null 2>&1
	st=$?
	check "strace run: exit 0" $st
	N=1024
	# Creates: O_CREAT|O_EXCL|O_NOFOLLOW, each once per create phase.
	grep 'O_CREAT|O_EXCL' "$T/st" | sed 's/.*"\([0-9]*\)".*/\1/' >"$T/c"
	# (musl adds O_LARGEFILE, which strace shows before O_NOFOLLOW.)
	n=$(grep -c 'O_CREAT|O_EXCL|.*O_NOFOLLOW' "$T/st")
	check "create + rcreate: $((2 * N)) O_CREAT|O_EXCL|O_NOFOLLOW (got $n)" \
	    $([ "$n" = $((2 * N)) ]; echo $?)
	grep -E 'newfstatat|statx|fstatat64' "$T/st" | grep '"[0-9]\{10\}"' |
	    sed 's/.*"\([0-9]*\)".*/\1/' >"$T/s"
	n=$(wc -l <"$T/s")
	check "stat + rstat: $((2 * N)) stats (got $n)" \
	    $([ "$n" = $((2 * N)) ]; echo $?)
	n=$(grep -c 'openat([0-9]*, "[0-9]\{10\}", O_RDONLY' "$T/st")
	check "stat + rstat: $((2 * N)) reading opens (got $n)" \
	    $([ "$n" = $((2 * N)) ]; echo $?)
	# One read(2) of a chunk (32 KiB here) per file of at most a chunk,
	# up to the size stat gave: none only to find the end of the file.
	env "$STRACE_ENV" strace -f --seccomp-bpf -qq -o "$T/rd" -e trace=read "$BONNIE" \
	    -q -d "$T" --files 1:100:1 -c 32k -p stat >/dev/null 2>&1
	n=$(grep -c ', 32768) *= [1-9]' "$T/rd")
	z=$(grep -c ', 32768) *= 0' "$T/rd")
	check "stat: $N reads with data, none at the end of file (got $n, $z)" \
	    $([ "$n" = $N ] && [ "$z" = 0 ]; echo $?)
	grep 'unlinkat([0-9]*, "[0-9]\{10\}"' "$T/st" |
	    sed 's/.*"\([0-9]*\)".*/\1/' >"$T/u"
	n=$(wc -l <"$T/u")
	check "delete + rdelete: $((2 * N)) unlinks (got $n)" \
	    $([ "$n" = $((2 * N)) ]; echo $?)
	for x in c s u; do
		head -n $N "$T/$x" >"$T/$x.seq"
		tail -n $N "$T/$x" >"$T/$x.ran"
		sort "$T/$x.seq" >"$T/$x.sorted"
		check "$x: the sequential phase in numeric order" \
		    $(cmp -s "$T/$x.seq" "$T/$x.sorted"; echo $?)
		check "$x: the random phase not in order" \
		    $(! cmp -s "$T/$x.ran" "$T/$x.sorted"; echo $?)
		sort "$T/$x.ran" | uniq >"$T/$x.ranset"
		check "$x: the random phase visits every name once" \
		    $(cmp -s "$T/$x.ranset" "$T/$x.sorted"; echo $?)
	done
	check "rstat's order is not rcreate's" \
	    $(! cmp -s "$T/s.ran" "$T/c.ran"; echo $?)
	check "rdelete's order is not rstat's" \
	    $(! cmp -s "$T/u.ran" "$T/s.ran"; echo $?)
	# Ctrl-C in each phase: strace sends SIGINT on the phase's 700th
	# call of its kind (of 1024), so that it lands mid-phase whatever
	# the speed of the disk or the load.  (Not with --seccomp-bpf, under
	# which strace 6.1 sent no signal: every run ended 0.)
	for ps in create:openat stat:newfstatat delete:unlinkat \
	    rcreate:openat rstat:newfstatat rdelete:unlinkat; do
		ph=${ps%%:*} sc=${ps#*:}
		case $ph in
		create) title="Creating files in order" ;;
		stat) title="Stating files in order" ;;
		delete) title="Deleting files in order" ;;
		rcreate) title="Creating files at random" ;;
		rstat) title="Stating files at random" ;;
		rdelete) title="Deleting files at random" ;;
		esac
		env "$STRACE_ENV" strace -f -o /dev/null -e trace=$sc \
		    -e inject=$sc:signal=SIGINT:when=700 \
		    "$BONNIE" -d "$T" --files 1 -p "$ph" >/dev/null 2>"$T/err"
		st=$?
		[ $st -eq 130 ] && tr '\r' '\n' <"$T/err" | grep -q "^$title\.\.\.interrupted"
		check "SIGINT in $ph: exit 130, in the phase (got $st)" $?
		[ $st -eq 130 ] || sed 's/^/#   /' "$T/err"
		check "SIGINT in $ph: no directory left" \
		    $(no_file_dirs "$T"; echo $?)
	done
else
	i=0
	while [ $i -lt 31 ]; do skip "strace not installed"; i=$((i + 1)); done
fi

# Planted names: a symlink and a foreign file where the next names go,
# while create is slowed.  The create fails (O_EXCL), the link's target
# stays as it was, and nothing foreign is removed.
if command -v strace >/dev/null 2>&1; then
	echo precious >"$T/target"
	env "$STRACE_ENV" strace -f --seccomp-bpf -o /dev/null -e trace=openat \
	    -e inject=openat:delay_enter=2000:when=200+ \
	    "$BONNIE" -d "$T" --files 1 -p create >/dev/null 2>"$T/err" &
	spid=$!
	i=0
	while [ $i -lt 100 ] && [ -z "$(find "$T" -maxdepth 1 \
	    -name 'bonnie-ng-files.*')" ]; do
		sleep 0.1; i=$((i + 1))
	done
	d=$(find "$T" -maxdepth 1 -name 'bonnie-ng-files.*' | head -n 1)
	ln -s "$T/target" "$d/0000001000"
	echo foreign >"$d/0000001001"
	chown 1:1 "$d/0000001001" 2>/dev/null
	echo foreign >"$d/notours"
	wait $spid
	st=$?
	check "planted: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
	check "planted: the error names the file" \
	    $(grep -q 'create.*File exists' "$T/err"; echo $?)
	check "planted: the link's target unchanged" \
	    $([ "$(cat "$T/target")" = precious ]; echo $?)
	check "planted: the link kept" $([ -L "$d/0000001000" ]; echo $?)
	check "planted: the foreign files kept" \
	    $([ -f "$d/notours" ] && [ -f "$d/0000001001" ]; echo $?)
	n=$(find "$d" -type f -name '[0-9]*' | wc -l)
	check "planted: our own files removed (left $n)" \
	    $([ "$n" -le 1 ]; echo $?)
	check "planted: the directory left in place is named" \
	    $(grep -q "$d.*left in place" "$T/err"; echo $?)
	rm -rf "$d"
else
	skip "strace not installed"
fi

# Only a foreign file planted in the tree (the run itself succeeds): the
# tree is left with it and named, and that is a file left: exit 1 (it
# was 0).
if command -v strace >/dev/null 2>&1; then
	env "$STRACE_ENV" strace -f --seccomp-bpf -o /dev/null -e trace=openat \
	    -e inject=openat:delay_enter=2000:when=200+ \
	    "$BONNIE" -d "$T" --files 1 -p create,delete -q >/dev/null 2>"$T/err" &
	spid=$!
	i=0
	while [ $i -lt 100 ] && [ -z "$(find "$T" -maxdepth 1 \
	    -name 'bonnie-ng-files.*')" ]; do
		sleep 0.1; i=$((i + 1))
	done
	d=$(find "$T" -maxdepth 1 -name 'bonnie-ng-files.*' | head -n 1)
	echo foreign >"$d/notours"
	wait $spid
	st=$?
	check "a foreign file in the tree: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
	check "a foreign file in the tree: the tree named, the true reason" \
	    $(grep -q "$d: Directory not empty: left in place (it holds files that are not the benchmark's)" "$T/err" &&
		[ -f "$d/notours" ]; echo $?)
	rm -rf "$d"
else
	skip "strace not installed"
	skip "strace not installed"
fi

# Out of inodes: a small ext4 image with few inodes.
if is_root && command -v mkfs.ext4 >/dev/null 2>&1 && \
    truncate -s 8M "$T/img" && mkfs.ext4 -q -F -N 64 "$T/img" \
    >/dev/null 2>&1 && mkdir "$T/mnt" && \
    mount -o loop "$T/img" "$T/mnt" 2>/dev/null; then
	T_MOUNTS="$T/mnt"
	"$BONNIE" -d "$T/mnt" --files 1 -p create >/dev/null 2>"$T/err"
	st=$?
	check "out of inodes: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
	check "out of inodes: said so" \
	    $(grep -q 'out of inodes' "$T/err"; echo $?)
	[ $st -eq 1 ] || sed 's/^/#   /' "$T/err"
	check "out of inodes: no directory left" \
	    $(no_file_dirs "$T/mnt"; echo $?)
	scratch_umount "$T/mnt"
else
	skip "out of inodes: needs root, mkfs.ext4 and a loop mount"
	skip "out of inodes: said so"
	skip "out of inodes: no directory left"
fi

# More subdirectories than ulimit -n allows (bash sets the soft and the
# hard limit): never more held open than that, the run goes on by path,
# the tree is removed; with --sync-writes too, and SIGINT mid-phase.
for extra in "" "--sync-writes"; do
	(ulimit -n 1024 && exec "$BONNIE" -d "$T" -q --files 1:0:0:1100 \
	    -p $ALL $extra) >"$T/out" 2>"$T/err"
	st=$?
	check "1100 directories under ulimit -n 1024${extra:+ $extra}: exit 0 (got $st)" \
	    $([ $st -eq 0 ]; echo $?)
	[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
	check "1100 directories under ulimit -n 1024${extra:+ $extra}: nothing left, no word" \
	    $(no_file_dirs "$T" && [ ! -s "$T/err" ]; echo $?)
done
# A removal that fails for another reason than foreign files is not
# blamed on them (the tree of a run killed by SIGKILL, made read-only).
(ulimit -n 1024 && exec "$BONNIE" -d "$T" --files 2:0:0:1100 -p create) \
    >"$T/out" 2>"$T/err" &
pid=$!
i=0
while ! grep -q "Creating files in order" "$T/err" 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.05; i=$((i + 1))
done
kill -INT $pid 2>/dev/null
wait $pid
st=$?
check "SIGINT with 1100 directories by path: exit 130 (got $st)" \
    $([ $st -eq 130 ]; echo $?)
check "SIGINT with 1100 directories by path: the tree removed" \
    $(no_file_dirs "$T"; echo $?)

done_testing
