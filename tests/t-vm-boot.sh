#!/bin/sh
# bonnie-ng vm with real kernels, Debian's 6.1 and 6.12 (make check-vm:
# .ci/kernels fetches them into $BONNIE_NG_KERNELS; without it each case
# skips).  Both boot from their packages and measure; the records validate
# against the schema and name their guest kernels; compare names the
# kernel release; the RAM axis changes the guest's MemTotal; the cells run
# interleaved (the kernels made ready through a --kernel-cache); each
# cell's report (the run's own, from the guest) comes on stdout before
# the comparison.  A guest that cannot start (init=/nonexistent), a broken
# image, a run killed with SIGTERM and a hung guest each leave no qemu,
# no image and no temporary directory behind (each call has its own
# TMPDIR).  Runs stay small (32 MiB): the guests are emulated (TCG).  The
# matrix takes --accel auto (KVM where it starts the kernel); the failures
# --accel tcg, which spares each the KVM probe (15 s where KVM opens but
# hangs).
# run.sh: long: six boots under TCG
. tests/lib.sh
kdir=${BONNIE_NG_KERNELS:-}
deb61=$(ls "$kdir"/linux-image-6.1.0-*-amd64_*.deb 2>/dev/null |
    sort -V | tail -1)
deb612=$(ls "$kdir"/linux-image-6.12.*-amd64_*.deb 2>/dev/null |
    sort -V | tail -1)
if [ -z "$kdir" ] || [ -z "$deb61" ] || [ -z "$deb612" ]; then
	skip "no kernels: make check-vm fetches them (.ci/kernels)"
	done_testing
	exit
fi
if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
	skip "no qemu-system-x86_64 (Debian's qemu-system-x86)"
	done_testing
	exit
fi
scratch

# Our qemus: every guest of bonnie-ng vm has a disk with this serial.
qemus() { pgrep -f 'serial=bonnie-ng-mailbox' 2>/dev/null; }

# nothing_left DESC TMPDIR: no temporary and no qemu of ours.
nothing_left() {
	ok "$1: no temporary left" [ -z "$(ls -A "$2")" ]
	ok "$1: no qemu left" [ -z "$(qemus)" ]
}

# jget FILE EXPR: a value of a record, by Python's json.
jget() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(eval(sys.argv[2], {"r": r}))' "$1" "$2"
}

# 1. Both kernels from their packages, two memory sizes: four cells.
mkdir "$T/tmp1"
# Through a kernel cache: the initramfs of each is made from the entry
# the command puts there (what a later command would take).
TMPDIR=$T/tmp1 "$BONNIE" vm --kernel "$deb61" --kernel "$deb612" \
    --mem 160m,320m --kernel-cache "$T/kc" --out "$T/out1" \
    -- -s 32 -p write,read >"$T/vm.out" 2>"$T/vm.err"
st=$?
# 0, or 1 when a gated column came out worse: the rates of emulated
# guests on a shared host go either way; 2 or 3 would be a failure.
ok "two kernels x two memory sizes: every cell ran, compared (exit $st)" \
    [ $st -le 1 ] || sed 's/^/#   /' "$T/vm.err"
ok "no cell failed" sh -c "! grep -q 'cells failed' '$T/vm.err'"
nothing_left "the matrix" "$T/tmp1"
ok "the kernel cache: both kernels, nothing else" [ "$(ls -A "$T/kc" |
    grep -c '^[0-9a-f]\{64\}$')" -eq 2 ] && [ "$(ls -A "$T/kc" | wc -l)" -eq 2 ]
set -- "$T"/out1/*.json
ok "four records" [ $# -eq 4 ]
ok "four console logs" [ "$(ls "$T"/out1/*.console.log | wc -l)" -eq 4 ]
schema_ok "the records validate against the schema" "$@"
# Each record: its guest kernel by name, its memory, its place.
: >"$T/cells"
for f in "$@"; do
	echo "$(jget "$f" 'r["guest"]["cell"]') $(jget "$f" \
	    'r["system"]["kernel_release"]') $(jget "$f" \
	    'r["guest"]["memory_bytes"]') $(jget "$f" \
	    'r["system"]["ram_bytes"]')" >>"$T/cells"
done
sort -n "$T/cells" >"$T/order"
sed 's/^/# /' "$T/order"
ok "the records name 6.1 and 6.12" sh -c "grep -q ' 6\\.1\\.0-' '$T/order' &&
    grep -q ' 6\\.12\\.' '$T/order'"
ok "interleaved: 6.1, 6.12, 6.1, 6.12" sh -c "awk '{ print \$2 }' \
    '$T/order' | cut -d. -f1,2 | tr '\\n' ' ' | grep -qx '6.1 6.12 6.1 6.12 '"
# MemTotal (system.ram_bytes) follows --mem: at least 100 MiB more.
ok "the RAM axis: MemTotal rises with --mem" awk '
    $3 == 167772160 { lo[$2] = $4 } $3 == 335544320 { hi[$2] = $4 }
    END { n = 0; for (k in lo) { if (!(k in hi) ||
    hi[k] - lo[k] < 100 * 1048576) exit 1; n++ } exit n != 2 }' "$T/order"
# Each cell's report on stdout (the classic row, as its run printed it in
# the guest), under a line naming the cell, all before the comparison:
# the row's block write K/sec is its record's.
: >"$T/rows"
for f in "$@"; do
	echo "$(jget "$f" 'r["guest"]["cell"]') $(jget "$f" \
	    'r["runs"][0]["phases"]["write"]["kps"]')" >>"$T/rows"
done
ok "each cell's report, its row the record's, before the comparison" awk '
    NR == FNR { kps[$1] = $2; next }
    /^vm: cell [1-4]\/4: 6\.1.*, ext4, round 1$/ { split($3, c, "/")
	cell = c[1]; next }
    cell && /^Machine / { head = 1; next }
    cell && head { if ($2 != 32 || $5 != kps[cell] || base) exit 1
	rows++; cell = head = 0; next }
    /is the base$/ { base = 1 }
    END { exit !(rows == 4 && base) }' "$T/rows" "$T/vm.out" ||
    sed 's/^/#   /' "$T/vm.out"
ok "compare names the kernel release as a setting that differs" \
    grep -q '^  kernel .*6\.1\.0-.* | 6\.12\.' "$T/vm.out"
# The accelerator (--accel auto): KVM with a -cpu host model where the
# kernel starts under it; else TCG's max, with the notes, and where
# /dev/kvm opens, why KVM was not used.
accel=$(for f in "$@"; do
	jq -r '.guest.accel + " " + .guest.cpu' "$f"
done | sort -u)
ok "the records' accelerator and -cpu, the same in each: $accel" sh -c "
    [ \$(echo '$accel' | wc -l) -eq 1 ] &&
    case '$accel' in 'kvm host'*|'tcg max') true ;; *) false ;; esac"
if [ "${accel%% *}" = kvm ]; then
	skip "KVM here: no TCG notes"
	skip "KVM here: no TCG notes"
	skip "KVM here: no TCG notes"
else
	ok "the TCG note" grep -q "the emulator's, not the kernel's" "$T/vm.err"
	ok "compare's TCG note" grep -q "emulated CPU (TCG)" "$T/vm.out"
	if [ -w /dev/kvm ]; then
		ok "/dev/kvm opens, TCG: why KVM was not used" grep -q \
		    'KVM did not start the kernel, so TCG' "$T/vm.err"
	else
		ok "no /dev/kvm: said" grep -q 'no KVM here, so TCG' "$T/vm.err"
	fi
fi

# The failures: the 6.12 image alone (no modules are needed to fail),
# the one the kernel cache of case 1 holds; unpacked again from its
# package only when the cache has none (5.3 s of xz's CPU).
img=$(ls "$T"/kc/*/boot/vmlinuz-6.12.* 2>/dev/null | head -1)
if [ -z "$img" ]; then
	mkdir "$T/k"
	dpkg-deb --fsys-tarfile "$deb612" | tar -x -C "$T/k" --wildcards \
	    './boot/vmlinuz-*'
	img=$(ls "$T"/k/boot/vmlinuz-*)
fi

# fails N DESC WORD VM-ARGS...: exit 3 naming WORD, nothing left.
fails() {
	_n=$1 _d=$2 _w=$3
	shift 3
	mkdir "$T/tmp$_n"
	TMPDIR=$T/tmp$_n "$BONNIE" vm --accel tcg --out "$T/out$_n" "$@" \
	    >"$T/vm.out" 2>"$T/vm.err"
	st=$?
	ok "$_d: exit 3 (was $st)" [ $st -eq 3 ] || sed 's/^/#   /' "$T/vm.err"
	ok "$_d: says so" grep -q "$_w" "$T/vm.err" ||
	    sed 's/^/#   /' "$T/vm.err"
	nothing_left "$_d" "$T/tmp$_n"
}
fails 2 "init=/nonexistent" "Kernel panic" --kernel "$img" --mem 192m \
    --append "init=/nonexistent rdinit=/nonexistent" -- -s 32 -p write
head -c 1000000 "$img" >"$T/broken"
fails 3 "a broken image" "no reply from the guest" --kernel "$T/broken" \
    --mem 192m -- -s 32 -p write
# Under --bisect a kernel that does not run is a commit git cannot test.
mkdir "$T/tmp3b"
TMPDIR=$T/tmp3b "$BONNIE" vm --accel tcg --bisect --out "$T/out3b" \
    --kernel "$T/broken" \
    --mem 192m -- -s 32 -p write >/dev/null 2>&1
st=$?
ok "--bisect, a broken image: exit 125 (was $st)" [ $st -eq 125 ]
nothing_left "--bisect" "$T/tmp3b"
# (A guest hung after its panic spins its emulated CPU, all of a host
# core, until the timeout: 5 s, not 20, which took 6.8 s of CPU at load
# 15, now 2.7; killed as it boots or as it spins, it is the same
# timeout.)
fails 4 "a hung guest" "no reply within the timeout" --kernel "$img" \
    --mem 192m --timeout 5 --append "rdinit=/nonexistent panic=0" \
    -- -s 32 -p write

# SIGTERM while the guest boots: qemu killed, exit 128 + 15.
mkdir "$T/tmp5"
TMPDIR=$T/tmp5 "$BONNIE" vm --accel tcg --kernel "$img" --mem 192m \
    --out "$T/out5" \
    --append "rdinit=/nonexistent panic=0" -- -s 32 -p write \
    >"$T/vm.out" 2>"$T/vm.err" &
pid=$!
i=0
while [ $i -lt 600 ] && ! grep -q ': booting' "$T/vm.err"; do
	sleep 0.1
	i=$((i + 1))
done
kill -TERM $pid
wait $pid
st=$?
ok "SIGTERM: exit 143 (was $st)" [ $st -eq 143 ] ||
    sed 's/^/#   /' "$T/vm.err"
ok "SIGTERM: says so" grep -q 'interrupted by SIGTERM' "$T/vm.err"
nothing_left "SIGTERM" "$T/tmp5"
done_testing
