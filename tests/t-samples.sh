#!/bin/sh
# What a latency sample holds.  The rewrite reads the clock where each
# chunk's new data is made and where that ends, so a sample is a chunk's
# write and the next chunk's read, the first read and the last write
# making one: with every read and every rewrite write slowed by a known
# sleep, each of its samples holds at least one of each, and there is one
# a chunk.  A sleep only lengthens a call: the bounds below are ones the
# scheduler cannot break.
. tests/lib.sh
. tests/fault/lib.sh
scratch

need_inject jq
# 8 chunks; the write phase's 8 writes are the first of their kind.
S=64k C=8k N=8
R=20000 W=30000		# microseconds: a read's sleep, a write's
for v in off on; do
	varg=
	[ $v = on ] && varg=--verify
	bn_fault "read:1+:sleep=$R,write:$((N + 1))+:sleep=$W" "$T/out" \
	    "$T/err" -d "$T" -s $S -c $C -p write,rewrite --cache=keep -q \
	    --no-space-check --json "$T/r.json" $varg
	check "verify $v: the run with slow reads and writes" $st
	[ $st -eq 0 ] || sed 's/^/# /' "$T/err"
	jq -e --argjson n $N '.runs[0].phases.rewrite |
	    .ops == $n and .latency.count == $n' "$T/r.json" >/dev/null
	check "verify $v: one rewrite sample a chunk" $?
	min=$(jq '.runs[0].phases.rewrite.latency.min_s' "$T/r.json")
	awk -v m="$min" -v r=$R -v w=$W 'BEGIN { exit !(m >= (r + w) / 1e6) }'
	check "verify $v: every sample holds a read and a write (min $min s)" $?
	jq -e --argjson n $N --argjson d $((R + W)) \
	    '.runs[0].phases.rewrite.elapsed_s >= $n * $d / 1e6' \
	    "$T/r.json" >/dev/null
	check "verify $v: the phase's time holds every read and write" $?
done
done_testing
