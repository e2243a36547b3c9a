#!/bin/sh
# Everything a record holds about how and where it ran is compared: each
# key of a real run record (made on tmpfs), changed in a copy, is named by
# compare (the setting it is, or the one it is a part of; a setting that
# must match also in the warning that the sides are not comparable), or
# the settings table says why it is not a setting.  Then the differences
# the issue found unlisted, from real runs: --sync-writes, --syncs,
# --lock-mem, and ext4 made with -b 1024 against -b 4096.
# run.sh: long: among the longest in CI; started first on a clean clone
. tests/lib.sh
scratch

if ! command -v jq >/dev/null 2>&1; then
	skip "jq is not installed"
	done_testing
	exit
fi
KEYS="$O/tests/t-settings"
if [ ! -x "$KEYS" ]; then
	skip "$KEYS is not built (make tests)"
	done_testing
	exit
fi
"$KEYS" --keys >"$T/keys"
ok "the settings table lists its keys" [ -s "$T/keys" ]

# A directory on tmpfs for the runs.
D=""
for d in /dev/shm /run/shm; do
	if [ -d "$d" ] && [ -w "$d" ] &&
	    [ "$(stat -f -c %T "$d" 2>/dev/null)" = tmpfs ]; then
		D=$(mktemp -d "$d/bonnie-ng-settings.XXXXXX") && break
	fi
done
if [ -z "$D" ]; then
	skip "no tmpfs to run on (/dev/shm)"
	done_testing
	exit
fi
trap 'rm -rf "$D"; cleanup_scratch' EXIT

# Small runs: the sync phase (a phase's own option) and the file phases
# (--files' object) included.
quick="-q -d $D -s 2m -c 16k -f -n 100 --files 1:4k:1k:2"
"$BONNIE" $quick -p write,read,sync,create,stat,delete --syncs 20 \
    --json "$T/real.json" >/dev/null 2>"$T/err"
ok "a real run on tmpfs makes its record" [ -s "$T/real.json" ]
[ -s "$T/err" ] && diag "$(cat "$T/err")"

# tmpfs has no block device: give the record one, with every key a
# device has (as a loop device's), so that those are walked too; and a
# bonnie-ng vm guest's object, every key as vm writes it.
jq '.target.device = { "name": "loop7", "scheduler": "none",
    "rotational": false, "read_ahead_kb": 128, "logical_block_size": 512,
    "physical_block_size": 512, "model": null, "size_bytes": 67108864,
    "loop_backing_file": "/srv/img", "loop_dio": false } |
    .guest = { "accel": "tcg", "vcpus": 1, "memory_bytes": 536870912,
    "disk_bytes": 910163968, "disk_cache": "none", "fs": "ext4",
    "mkfs_options": null, "mount_options": null, "append": null,
    "qemu": "qemu-system-x86_64", "qemu_version": "7.2.22",
    "kernel_image": "/boot/vmlinuz", "kernel_sha256":
    "25e82babd1b424cdb8a000a0fbf163501e9f46b4b5f2dc2b435a8aa15231d39b",
    "host_kernel": "6.1.0-41-amd64", "host_command": ["bonnie-ng", "vm",
    "--kernel", "/boot/vmlinuz"], "cell": 1, "cells": 2, "round": 1 }' \
    "$T/real.json" >"$T/base.json"

# Every key about how and where the run ran: the leaves of these objects
# (an array is one value), and the record's own scalars.
jq -r '[paths(scalars)] + [paths(arrays)] | map(
    select(.[0] | IN("system", "guest", "target", "options", "memory",
        "schema", "tool", "version", "command", "start"))) |
    map(if (.[-1] | type) == "number" then .[:-1] else . end) | unique |
    .[] | map(tostring) | join(".")' "$T/base.json" >"$T/paths"
ok "the record has keys to walk" [ "$(wc -l <"$T/paths")" -gt 40 ]

# Under the sanitizers and in the portable build (the same table, the
# same compare) one key in four is changed and compared, each key in
# turn over the runs; the plain build walks them all (it took ASan 26 s
# of CPU: two compares a key).
stride=1 off=0
if [ -n "${BONNIE_NG_SANITIZED:-}" ] || portable; then
	stride=4 off=$(($$ % 4))
	diag "one key in $stride (offset $off, by the process id): the plain build walks them all"
fi
# Each key with its row (rule, name, why), whether it is walked, and its
# name as a grep pattern, in one pass; the changed copies of the walked
# keys in one jq (a process of each a key took half this test's CPU).
# The changed copy: a number doubled (1 for 0), a boolean flipped, a
# string changed (the target's kind to the other kind), an array grown, a
# null made a value.
US=$(printf '\037')
awk -F '\t' -v stride=$stride -v off=$off -v us="$US" '
    NR == FNR { row[$1] = $2 us $3 us $4; next }
    { if (!($0 in row)) { print $0 us "missing"; next }
	split(row[$0], f, us); walk = 0
	if (f[1] != "none" && (FNR + off) % stride == 0) walk = 1
	pat = f[2]; gsub(/[.*[]/, "\\\\&", pat)
	print $0 us row[$0] us walk us pat }' "$T/keys" "$T/paths" >"$T/rows"
awk -v us="$US" 'BEGIN { FS = us } $5 == 1 { print $1 }' "$T/rows" >"$T/walk"
mkdir "$T/new"
jq -c --rawfile ks "$T/walk" '. as $r | $ks | split("\n")[] |
    select(length > 0) as $k | ($k | split(".")) as $p |
    $r | getpath($p) as $v | setpath($p;
      if ($v | type) == "number" then (if $v == 0 then 1 else $v * 2 end)
      elif ($v | type) == "boolean" then ($v | not)
      elif ($v | type) == "array" then $v + ["changed"]
      elif $v == null then 12345
      elif $k == "target.kind" then
        (if $v == "device" then "file" else "device" end)
      else $v + "-changed" end)' "$T/base.json" |
    awk -v d="$T/new" '{ f = d "/" NR ".json"; print >f; close(f) }'
missing="" unnamed="" unwarned="" nowhy="" walked=0
while IFS=$US read -r key rule name why walk pat; do
	if [ "$rule" = missing ]; then
		missing="$missing $key"
		continue
	fi
	if [ "$rule" = none ]; then
		[ -n "$why" ] || nowhy="$nowhy $key"
		continue
	fi
	[ "$walk" = 1 ] || continue
	walked=$((walked + 1))
	new=$T/new/$walked.json
	"$BONNIE" compare -o json "$T/base.json" "$new" \
	    >"$T/cmp.json" 2>/dev/null
	if ! jq -e --arg n "$name" '.base.settings[$n] !=
	    .new[0].settings[$n]' "$T/cmp.json" >/dev/null 2>&1; then
		unnamed="$unnamed $key($name)"
		continue
	fi
	"$BONNIE" compare "$T/base.json" "$new" >"$T/cmp.txt" 2>&1
	if ! grep -q "^  $pat " "$T/cmp.txt"; then
		unnamed="$unnamed $key($name, text)"
		continue
	fi
	if [ "$rule" = match ] && ! grep "is not comparable with" "$T/cmp.txt" |
	    grep -qF "$name "; then
		unwarned="$unwarned $key"
	fi
done <"$T/rows"
[ "$walked" -eq "$(wc -l <"$T/walk")" ] && [ -s "$T/new/$walked.json" ] ||
    unnamed="$unnamed (the copies: $(ls "$T/new" | wc -l) for $(wc -l <"$T/walk") keys)"
diag "walked $walked keys that are settings or parts of one"
[ -n "$missing" ] && diag "in no row of the settings table:$missing"
ok "every key of the record is in the settings table" [ -z "$missing" ]
[ -n "$unnamed" ] && diag "changed but not named by compare:$unnamed"
ok "compare names every setting changed in a copy" [ -z "$unnamed" ]
[ -n "$unwarned" ] && diag "must match but no warning:$unwarned"
ok "a setting that must match makes the sides not comparable" \
    [ -z "$unwarned" ]
ok "every key that is not a setting says why" [ -z "$nowhy" ]

# The same record against itself: nothing differs.
"$BONNIE" compare "$T/real.json" "$T/real.json" >"$T/cmp.txt" 2>&1
! grep -q "^Settings that differ" "$T/cmp.txt"
check "a record against itself: no setting differs" $?

# Real runs that differ in one option each.
one() {
	"$BONNIE" -q -d "$D" -s 1m -c 16k -p write,sync --syncs 10 "$@" \
	    --json "$T/one.json" >/dev/null 2>&1
}
one && cp "$T/one.json" "$T/plain.json"
one --sync-writes && cp "$T/one.json" "$T/sw.json"
"$BONNIE" compare "$T/plain.json" "$T/sw.json" >"$T/cmp.txt" 2>&1
grep -Eq '^  sync-writes +false \| true$' "$T/cmp.txt" &&
    grep -q "not comparable with $T/plain.json: sync-writes false vs true" \
    "$T/cmp.txt"
check "compare: --sync-writes against none is listed, not comparable" $?
"$BONNIE" compare -o json "$T/plain.json" "$T/sw.json" >"$T/cmp.json" 2>&1
[ "$(jq -r '.new[0].not_comparable' "$T/cmp.json")" = \
    "sync-writes false vs true" ] &&
    [ "$(jq -r '.new[0].settings["sync-writes"]' "$T/cmp.json")" = true ]
check "compare -o json: not_comparable and the setting" $?
"$BONNIE" compare -o junit "$T/plain.json" "$T/sw.json" >"$T/cmp.xml" 2>&1
grep -q '<property name="not_comparable" value="sync-writes false vs true"/>' \
    "$T/cmp.xml" &&
    grep -q '^      <system-out>write: .*(not comparable: sync-writes false vs true)</system-out>$' \
    "$T/cmp.xml"
check "compare -o junit: the suite's property, each verdict's note" $?
"$BONNIE" compare -o json "$T/plain.json" "$T/plain.json" >"$T/cmp.json" 2>&1
[ "$(jq -r '.new[0].not_comparable' "$T/cmp.json")" = null ]
check "compare -o json: comparable sides: not_comparable null" $?
"$BONNIE" -q -d "$D" -s 1m -c 16k -p write,sync --syncs 20 \
    --json "$T/s20.json" >/dev/null 2>&1
"$BONNIE" compare "$T/plain.json" "$T/s20.json" >"$T/cmp.txt" 2>&1
grep -Eq '^  syncs +10 \| 20$' "$T/cmp.txt" &&
    grep -q "not comparable.*syncs 10 vs 20" "$T/cmp.txt"
check "compare: --syncs 10 against 20 is listed, not comparable" $?
if is_root && one --lock-mem 64m; then
	cp "$T/one.json" "$T/lock.json"
	"$BONNIE" compare "$T/plain.json" "$T/lock.json" >"$T/cmp.txt" 2>&1
	grep -Eq '^  lock-mem +none \| 64m$' "$T/cmp.txt" &&
	    grep -q "not comparable.*lock-mem none vs 64m" "$T/cmp.txt" &&
	    grep -Eq '^  locked +0 \| 67108864$' "$T/cmp.txt"
	check "compare: --lock-mem 64m against none is listed" $?
	diag "$(grep -E '^  (lock|locked|ram)' "$T/cmp.txt")"
else
	skip "--lock-mem: needs root and room to lock 64 MiB"
fi

# ext4 made with -b 1024 against -b 4096: the block size is listed.
if is_root && command -v mkfs.ext4 >/dev/null 2>&1; then
	mkdir "$T/m1" "$T/m4"
	truncate -s 32m "$T/i1" "$T/i4"
	mkfs.ext4 -q -F -b 1024 "$T/i1" >/dev/null 2>&1
	mkfs.ext4 -q -F -b 4096 "$T/i4" >/dev/null 2>&1
	if mount -o loop "$T/i1" "$T/m1" 2>/dev/null &&
	    mount -o loop "$T/i4" "$T/m4" 2>/dev/null; then
		T_MOUNTS="$T/m1 $T/m4"
		"$BONNIE" -q -d "$T/m1" -s 1m -c 16k -p write \
		    --json "$T/b1.json" >/dev/null 2>&1
		"$BONNIE" -q -d "$T/m4" -s 1m -c 16k -p write \
		    --json "$T/b4.json" >/dev/null 2>&1
		"$BONNIE" compare "$T/b1.json" "$T/b4.json" >"$T/cmp.txt" 2>&1
		grep -Eq '^  block size +1024 \| 4096$' "$T/cmp.txt"
		check "compare: ext4 -b 1024 against -b 4096 lists the block size" $?
		diag "$(sed -n '/^Settings/,/^$/p' "$T/cmp.txt")"
		scratch_umount "$T/m1" "$T/m4"
	else
		scratch_umount "$T/m1"
		skip "ext4 block sizes: cannot mount the images"
	fi
else
	skip "ext4 block sizes: needs root and mkfs.ext4"
fi

done_testing
