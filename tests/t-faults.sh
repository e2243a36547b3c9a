#!/bin/sh
# The fault matrix, I/O errors and short transfers: a preloaded library
# (tests/fault/inject.c) fails the Nth call of one kind on the test file.
# Every failure must exit 1 with one line naming the phase, the test file,
# the system's words and the offset (the one the library saw), write the
# JSON record of the phases that completed plus the error, and leave no
# test file and no seeker behind.  Short transfers must be retried to
# completion, never counted as full.
. tests/lib.sh
. tests/fault/lib.sh
scratch
chmod 755 "$T"

need_inject
json_probe "$T"

SIZE=1m CHUNK=4k NCHUNK=256
ARGS="-d $T -q -s $SIZE -c $CHUNK -S 3 -n 200 --cache=keep --no-space-check"

# cell DESC PHASES SPEC FAILPHASE ERRNO TEXT [ARGS...]
cell() {
	desc=$1 phases=$2 spec=$3 fphase=$4 errno=$5 text=$6
	shift 6
	rm -f "$T/fault.log" "$T/r.json"
	jarg=
	[ $JSON -eq 1 ] && jarg="--json $T/r.json"
	bn_fault "$spec" "$T/out" "$T/err" $ARGS -p "$phases" $jarg "$@"
	check "$desc: exit 1" $([ $st -eq 1 ]; echo $?)
	[ $st -eq 1 ] || sed 's/^/# /' "$T/err"
	err_line "$T/err" "$fphase" "$text"
	r=$?
	check "$desc: one line naming phase $fphase, the file, '$text'" $r
	[ $r -eq 0 ] || sed 's/^/#   got: /' "$T/err"
	# The offset the library saw, for calls that carry one.
	kind=${spec%%:*}
	case $kind in
	read|write|pread|pwrite|putc|getc)
		# Forked seekers each count their own calls: any of them.
		want=$(sed -n "s/^fault .*kind=$kind .* offset=\([0-9-]*\)\$/\1/p" \
		    "$T/fault.log" | tr '\n' ' ')
		got=$(err_offset "$T/err")
		# A failed putc() is reported where the file ends, as a
		# failed write under stdio would be: the bytes before it that
		# are still in the one-chunk stdio buffer never reached it.
		if [ "$kind" = putc ]; then
			w=
			for o in $want; do
				w="$w $((o / 4096 * 4096))"
			done
			want="${w# } "
		fi
		check "$desc: offset $got is where the fault was (${want:-none})" \
		    $(case " $want" in *" $got "*) [ -n "$got" ] ;; *) false ;; esac; echo $?)
		;;
	esac
	check "$desc: no test file left" $(no_test_files "$T"; echo $?)
	check "$desc: no process left" $(no_procs; echo $?)
	if [ $JSON -eq 0 ]; then
		skip "$desc: JSON record (jq missing or --json not in this build)"
		return
	fi
	done_phases=$(echo "$phases" | tr ',' ' ')
	expr=".runs[0].error.phase == \"$fphase\" and .runs[0].error.errno == $errno and (.runs[0].error.offset | type) == \"number\" and (.runs[0].error.message | test(\"phase $fphase\")) and .runs[0].phases.$fphase == null"
	for p in $done_phases; do
		[ "$p" = "$fphase" ] && break
		expr="$expr and .runs[0].phases.$p != null"
	done
	jq -e "$expr" "$T/r.json" >/dev/null 2>&1
	r=$?
	check "$desc: JSON record has the completed phases and the error" $r
	[ $r -eq 0 ] && return
	if [ -s "$T/r.json" ]; then
		jq -c '.runs[0] | {error, done: (.phases | map_values(. != null))}' "$T/r.json" 2>&1 | sed 's/^/#   /'
	else
		diag "no record written"
	fi
}

# short DESC PHASES SPEC KIND: a short transfer is retried, the run
# succeeds and the bytes moved on the file are the whole size.
short() {
	desc=$1 phases=$2 spec=$3 kind=$4 want=$5
	rm -f "$T/fault.log"
	bn_fault "$spec" "$T/out" "$T/err" $ARGS -p "$phases"
	check "$desc: run succeeds" $([ $st -eq 0 ]; echo $?)
	[ $st -eq 0 ] || sed 's/^/# /' "$T/err"
	check "$desc: the fault fired" $(grep -q "kind=$kind .*short" "$T/fault.log"; echo $?)
	got=$(sed -n "s/^moved pid=[0-9]* kind=$kind bytes=//p" "$T/fault.log" | head -n 1)
	check "$desc: $kind moved ${got:-0} bytes, want $want" \
	    $([ "${got:-0}" = "$want" ]; echo $?)
	check "$desc: no test file left" $(no_test_files "$T"; echo $?)
}

EIO="Input/output error"
NOSPC="No space left on device"
FULL=1048576

# Block write: write(2), fsync, close.
cell "write EIO"	write	write:10:EIO	write 5 "$EIO"
cell "write ENOSPC"	write	write:20:ENOSPC	write 28 "$NOSPC"
cell "write fsync EIO"	write	fsync:1:EIO	write 5 "$EIO"
cell "write close EIO"	write	close:1:EIO	write 5 "$EIO"
short "write short"	write	write:7:short	write $FULL

# Per-char write: putc, fflush, fsync, fclose (see tests/fault/inject.c
# for why stdio needs its own hooks).
cell "putc EIO"		putc	putc:5000:EIO	putc 5 "$EIO"
cell "putc fflush EIO"	putc	fflush:1:EIO	putc 5 "$EIO"
cell "putc fsync EIO"	putc	fsync:1:EIO	putc 5 "$EIO"
cell "putc fclose ENOSPC" putc	fclose:1:ENOSPC	putc 28 "$NOSPC"

# Rewrite after a block write: its reads and writes come after the
# NCHUNK writes of the write phase.
cell "rewrite read EIO"	write,rewrite	read:10:EIO	rewrite 5 "$EIO"
cell "rewrite write EIO" write,rewrite	write:$((NCHUNK + 10)):EIO rewrite 5 "$EIO"
cell "rewrite write ENOSPC" write,rewrite write:$((NCHUNK + 3)):ENOSPC rewrite 28 "$NOSPC"
cell "rewrite fsync EIO" write,rewrite	fsync:2:EIO	rewrite 5 "$EIO"
short "rewrite short read" write,rewrite read:9:short	read $FULL

# Per-char read.
cell "getc EIO"		write,getc	getc:3000:EIO	getc 5 "$EIO"

# Block read.
cell "read EIO"		write,read	read:10:EIO	read 5 "$EIO"
short "read short"	write,read	read:9:short	read $FULL
short "read short x3"	write,read	read:9+50:short	read $FULL

# Random seeks, forked and threaded: pread, and pwrite every 10th seek.
for mode in fork thread; do
	cell "seeks($mode) pread EIO" write,seeks pread:5:EIO seeks 5 "$EIO" \
	    --seekers=$mode
	cell "seeks($mode) pwrite EIO" write,seeks pwrite:2:EIO seeks 5 "$EIO" \
	    --seekers=$mode
	bn_fault pread:3+7:short "$T/out" "$T/err" $ARGS -p write,seeks \
	    --seekers=$mode
	check "seeks($mode) short preads are retried" $([ $st -eq 0 ]; echo $?)
	[ $st -eq 0 ] || sed 's/^/# /' "$T/err"
	check "seeks($mode) short: no file left" $(no_test_files "$T"; echo $?)
done

# The whole benchmark: a read fault stops it after five phases.
cell "all phases, read EIO" putc,write,rewrite,getc,read,seeks \
    read:$((NCHUNK + 5)):EIO read 5 "$EIO"

done_testing
