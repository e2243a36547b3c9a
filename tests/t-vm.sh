#!/bin/sh
# bonnie-ng vm's refusals, before anything boots or is made: each is one
# line on stderr naming what is wrong, exit 2, nothing on stdout, no
# temporary directory left in its own TMPDIR and no out directory made.
# Its help, and the completion after "--" (run's options).  The report on
# standard output, with a stand-in for qemu (tests/vm-fake-qemu.py) that
# answers on the mailbox disk with a record and a report a real run on
# the host made; --kernel-cache with a Debian package made here.  The
# boots themselves are t-vm-boot.sh's (make check-vm).
. tests/lib.sh
. tests/fault/lib.sh
scratch
mkdir "$T/tmp" "$T/cwd"
# Not a kernel: text.  A fake bzImage is not needed: nothing boots here.
printf 'not a kernel\n' >"$T/text"

# bad WORD-IN-MESSAGE ARGS...: refused before anything is made.
bad() {
	_w=$1; shift
	(cd "$T/cwd" && TMPDIR=$T/tmp PATH=${VM_PATH:-$PATH} "$BONNIE" vm \
	    "$@" >"$T/out" 2>"$T/err" </dev/null)
	st=$?
	_r=0
	[ $st -eq 2 ] || _r=1
	one_line "$T/err" || _r=1
	grep -q -- "^bonnie-ng: .*$_w" "$T/err" || _r=1
	[ -s "$T/out" ] && _r=1
	[ -z "$(ls -A "$T/tmp")$(ls -A "$T/cwd")" ] || _r=1
	check "refused: vm $* (exit $st)" $_r
	[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
}

bad "--kernel: give a kernel"	-- -s 32
bad "not a kernel image"	--kernel "$T/text" -- -s 32
bad "No such file"		--kernel "$T/none" -- -s 32
bad "give it after the --kernel" --modules "$T" --kernel "$T/text"
bad "below the 128 MiB"		--kernel "$T/text" --mem 64m
bad "below the 128 MiB"		--kernel "$T/text" --mem 512m,100m
bad "use ext4, ext2, xfs or none" --kernel "$T/text" --fs btrfs
bad "use auto, kvm or tcg"	--kernel "$T/text" --accel hvf
bad "--rounds"			--kernel "$T/text" --rounds 0
bad "after --: invalid value for -s" --kernel "$T/text" -- -s banana
bad "after --: .*-d is the tool's" --kernel "$T/text" -- -s 32 -d /tmp
bad "after --: --json is the tool's" --kernel "$T/text" -- --json x.json
bad "after --: --device is the tool's" --kernel "$T/text" -- --device /dev/null
bad "--fs none .* and a file system" --kernel "$T/text" --fs ext4,none
# qemu missing: named with its Debian package (PATH without it); a fake
# bzImage (its setup header's magic) passes the kernel's check first.
printf '\125\252\0\0HdrS' | dd of="$T/fake" bs=1 seek=510 conv=notrunc \
    2>/dev/null
VM_PATH=/nonexistent bad \
    "qemu-system-x86_64 not found: install Debian's qemu-system-x86" \
    --kernel "$T/fake" -- -s 32

# --bisect: a refused line stops git bisect run (255), whatever the fault.
(cd "$T/cwd" && TMPDIR=$T/tmp "$BONNIE" vm --bisect --mem 64m \
    --kernel "$T/text" >"$T/out" 2>"$T/err" </dev/null)
ok "vm --bisect, a bad --mem: exit 255" [ $? -eq 255 ]
(cd "$T/cwd" && TMPDIR=$T/tmp "$BONNIE" vm --bisect=strict \
    --kernel "$T/text" >"$T/out" 2>"$T/err" </dev/null)
ok "vm --bisect=strict, not a kernel: exit 255" [ $? -eq 255 ]
ok "vm --bisect: nothing made" [ -z "$(ls -A "$T/tmp")$(ls -A "$T/cwd")" ]

# The report: a stand-in qemu replies with a host run's record and report.
mkdir "$T/fq" "$T/d" "$T/tmp2"
ln -s "$BN_TOP/tests/vm-fake-qemu.py" "$T/fq/qemu-system-x86_64"
"$BONNIE" -d "$T/d" -q -s 1m -c 4k -p write --json "$T/rec.json" \
    >"$T/report" 2>/dev/null
# fake OUT VM-ARGS...: bonnie-ng vm with the stand-in; its exit status.
fake() {
	_o=$1; shift
	FAKE_RECORD=$T/rec.json FAKE_REPORT=$T/report PATH=$T/fq:$PATH \
	    TMPDIR=$T/tmp2 "$BONNIE" vm --accel tcg --out "$T/$_o" "$@" \
	    -- -s 1m -c 4k -p write >"$T/$_o.out" 2>"$T/$_o.err" </dev/null
}
FAKE_INIT=$T/init fake one --kernel "$T/fake"
ok "one cell: exit 0 (was $?)" [ $? -eq 0 ]
# The guest's /init: this program without what no process reads.
ok "/init: smaller than the program, no debug information" sh -c "
    [ \$(wc -c <'$T/init') -lt \$(wc -c <'$BONNIE') ] &&
    ! grep -q debug_info '$T/init'"
ok "/init: still runs" sh -c "'$T/init' --version | grep -q '^bonnie-ng '"
ok "one cell: its report alone on stdout, as the run printed it" \
    cmp "$T/report" "$T/one.out"
ok "one cell: the report has the classic row" grep -q '^Machine .*K/sec' \
    "$T/one.out"
fake two --kernel "$T/fake" --kernel "$T/fake"
ok "two cells: exit 0 (was $?)" [ $? -eq 0 ]
# Each cell's report under a line naming it, then the comparison.
awk -v rep="$T/report" '
    BEGIN { while ((getline l < rep) > 0) r = r l "\n" }
    /^vm: cell [12]\/2: unknown\.k[12], 512 MiB of RAM, ext4, round 1$/ {
	if (cmp) exit 1; cells++; got = ""; cmp = 1; next }
    cmp && $0 == "" { if (got != r) exit 1; cmp = 0; next }
    cmp { got = got $0 "\n"; next }
    /is the base$/ { if (cells == 2 && !cmp) base = 1 }
    END { exit !(base && cells == 2) }' "$T/two.out"
check "two cells: each report under its cell's line, then the comparison" $?
[ $? -eq 0 ] || sed 's/^/#   /' "$T/two.out"
ok "the stand-in's calls: nothing left" [ -z "$(ls -A "$T/tmp2")" ]

# KVM that opens but does not start every guest: the model is tried with
# the kernel (the stand-in prints its banner), the first that starts it
# kept and named; none, and it is TCG, saying why.  Only where /dev/kvm
# opens: otherwise KVM is never tried.
if [ -r /dev/kvm ] && [ -w /dev/kvm ] && [ "$(id -u)" -eq 0 ]; then
	# kvmcase OUT FAKE_KVM CPU ACCEL WORD: exit 0, the guest booted
	# with -accel ACCEL -cpu CPU, WORD on stderr, no stand-in left.
	kvmcase() {
		FAKE_ARGV=$T/$1.argv FAKE_KVM=$2 fake "$1" --kernel "$T/fake" \
		    --accel auto
		st=$?
		_r=0
		[ $st -eq 0 ] || _r=1
		grep -q -- "-accel $4 -cpu $3 .*id=mailbox" "$T/$1.argv" || _r=1
		grep -q -- "$5" "$T/$1.err" || _r=1
		pgrep -f vm-fake-qemu >/dev/null && _r=1
		[ -z "$(ls -A "$T/tmp2")" ] || _r=1
		check "KVM that $2: $4, -cpu $3, saying '$5' (exit $st)" $_r
		[ $_r -eq 0 ] || sed 's/^/#   /' "$T/$1.err"
	}
	kvmcase kvm1 ok host kvm 'ran in'
	ok "KVM that starts -cpu host: no word of KVM" \
	    sh -c "! grep -q 'KVM' '$T/kvm1.err'"
	kvmcase kvm2 no-host host,-arch-capabilities kvm \
	    'KVM, with -cpu host,-arch-capabilities: .*failed to set MSR 0x10a'
	kvmcase kvm3 none max tcg \
	    'KVM did not start the kernel, so TCG'
	ok "KVM that starts nothing: each model's refusal named" \
	    grep -q 'with -cpu host: qemu was killed by SIGABRT: .*MSR.*; -cpu host,-arch-capabilities: qemu was killed' "$T/kvm3.err"
	FAKE_KVM=none fake kvm4 --kernel "$T/fake" --accel kvm
	st=$?
	ok "--accel kvm that starts nothing: exit 1 (was $st), no out dir" \
	    [ $st -eq 1 ] && [ ! -e "$T/kvm4" ]
	ok "--accel kvm that starts nothing: says so in one line" sh -c \
	    "grep -c '^bonnie-ng:' '$T/kvm4.err' | grep -qx 1 &&
	    grep -q 'did not start under KVM: -cpu host: ' '$T/kvm4.err'"
else
	for i in 1 2 3 4 5 6 7; do
		skip "KVM's -cpu models: /dev/kvm does not open here"
	done
fi

# mkko PATH MODINFO...: a module, an ELF object whose .modinfo section
# holds the strings MODINFO ("depends=mbcache", "alias=fs-ext4").
mkko() {
	python3 - "$@" <<'EOF'
import struct, sys
mi = b"".join(s.encode() + b"\0" for s in sys.argv[2:])
names = b"\0.modinfo\0.shstrtab\0"
shoff = (64 + len(mi) + len(names) + 7) & ~7
head = b"\x7fELF\x02\x01\x01" + bytes(9) + struct.pack("<HHIQQQIHHHHHH",
    1, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 3, 2)
body = head + mi + names
sh = lambda name, kind, off, size: struct.pack("<IIQQQQIIQQ", name, kind,
    0, 0, off, size, 0, 0, 1, 0)
open(sys.argv[1], "wb").write(body + bytes(shoff - len(body)) +
    bytes(64) + sh(1, 1, 64, len(mi)) + sh(10, 3, 64 + len(mi), len(names)))
EOF
}

# --kernel-cache: a Debian package made here as Debian's are (a stand-in
# bzImage, ext4 compressed and mbcache as modules, virtio built in, no
# modules.dep: the dependencies come from the modules' .modinfo) is
# unpacked once, kept by its SHA-256, and taken from there the next time.
if command -v dpkg-deb >/dev/null 2>&1 && command -v sha256sum \
    >/dev/null 2>&1 && command -v xz >/dev/null 2>&1; then
	P=$T/pkg M=$T/pkg/lib/modules/9.9.9-fake
	mkdir -p "$P/DEBIAN" "$P/boot" "$M/kernel/fs/ext4"
	printf 'Package: linux-image-9.9.9-fake\nVersion: 1\nArchitecture: %s\n%s\n' \
	    amd64 'Maintainer: t-vm <t@example.org>
Description: a stand-in' >"$P/DEBIAN/control"
	cp "$T/fake" "$P/boot/vmlinuz-9.9.9-fake"
	mkko "$M/kernel/fs/ext4/ext4.ko" alias=fs-ext4 alias=fs-ext2 \
	    depends=mbcache name=ext4
	xz -0 "$M/kernel/fs/ext4/ext4.ko"
	mkko "$M/kernel/fs/mbcache.ko" depends= name=mbcache
	printf '%s\n' kernel/drivers/virtio/virtio_pci.ko \
	    kernel/drivers/block/virtio_blk.ko >"$M/modules.builtin"
	dpkg-deb -Zxz --root-owner-group -b "$P" "$T/k.deb" >/dev/null
	sum=$(sha256sum "$T/k.deb" | cut -d' ' -f1)
	fake kc1 --kernel-cache "$T/kc" --kernel "$T/k.deb"
	ok "--kernel-cache, first: exit 0 (was $?)" [ $? -eq 0 ]
	ok "--kernel-cache, first: unpacked and kept" grep -q \
	    '9.9.9-fake, 2 modules, .*(unpacked; now in the kernel cache)$' \
	    "$T/kc1.err"
	ok "--kernel-cache: one entry, named by the package's SHA-256" \
	    [ "$(ls -A "$T/kc")" = "$sum" ]
	ok "--kernel-cache: its image, depmod text and two modules" sh -c "
	    cd '$T/kc/$sum' && [ -f boot/vmlinuz-9.9.9-fake ] &&
	    grep -qx 'kernel/fs/ext4/ext4.ko.xz: kernel/fs/mbcache.ko' \
	    depmod.txt && [ \$(find lib -name '*.ko*' | wc -l) -eq 2 ]"
	fake kc2 --kernel-cache "$T/kc" --kernel "$T/k.deb"
	ok "--kernel-cache, again: exit 0 (was $?)" [ $? -eq 0 ]
	ok "--kernel-cache, again: from the cache, the same two modules" \
	    grep -q '9.9.9-fake, 2 modules, .*(from the kernel cache)$' \
	    "$T/kc2.err"
	ok "--kernel-cache: nothing else left" sh -c "[ -z \"\$(ls -A \
	    '$T/tmp2')\" ] && [ \"\$(ls -A '$T/kc')\" = '$sum' ]"
	# Not an entry of bonnie-ng's: the command fails, naming it.
	mkdir "$T/kc3" && : >"$T/kc3/$sum"
	fake kc3o --kernel-cache "$T/kc3" --kernel "$T/k.deb"
	ok "--kernel-cache: a file in an entry's place: exit 1 (was $?)" \
	    [ $? -eq 1 ]
	ok "--kernel-cache: ... named" grep -q "kc3/$sum: not a directory" \
	    "$T/kc3o.err"
	# No xz for the package's data.tar.xz (dpkg-deb's default): one
	# line naming Debian's package, exit 2, nothing left.
	mkdir "$T/noxz"
	for c in tar python3; do
		ln -s "$(command -v $c)" "$T/noxz/$c"
	done
	(cd "$T/cwd" && TMPDIR=$T/tmp FAKE_RECORD=$T/rec.json \
	    FAKE_REPORT=$T/report PATH=$T/fq:$T/noxz "$BONNIE" vm --fs none \
	    --kernel "$T/k.deb" -- -q -s 1m >"$T/out" 2>"$T/err" </dev/null)
	st=$?
	[ $st -eq 2 ] && one_line "$T/err" && grep -q "no xz to unpack its \
data.tar.xz: install Debian's xz-utils package" "$T/err" &&
	    [ -z "$(ls -A "$T/tmp")$(ls -A "$T/cwd")" ]
	check "no xz: one line naming xz-utils, exit 2 (was $st), nothing left" $?
	# --modules with a modules.dep: read, not the modules' .modinfo
	# (this one says ext4 needs nothing).
	echo 'kernel/fs/ext4/ext4.ko.xz:' >"$M/modules.dep"
	fake mdep --kernel "$T/fake" --modules "$M"
	ok "--modules with its modules.dep: exit 0 (was $?), as it says" \
	    grep -q '9.9.9-fake, 1 module, ' "$T/mdep.err"
else
	for i in 1 2 3 4 5 6 7 8 9 10 11; do
		skip "--kernel-cache: needs dpkg-deb, sha256sum and xz"
	done
fi
bad "kernel-cache: .*/no/such: No such file" --kernel "$T/fake" \
    --kernel-cache "$T/no/such" -- -s 32
bad "kernel-cache: .*: not a directory" --kernel "$T/fake" \
    --kernel-cache "$T/fake" -- -s 32

# The help: vm's own, not run's.
run vm --help
ok "vm --help: exit 0" [ "$status" -eq 0 ]
ok "vm --help: vm's usage" grep -q '^usage: bonnie-ng vm .*--kernel' "$T/out"
ok "vm --help: its options" grep -q -- '--mem size' "$T/out"

# The completion after "--" offers run's options; before it, vm's.
"$BONNIE" __complete vm --mem 512m -- -- >"$T/out" 2>&1
ok "completion after --: run's options" grep -qx -- '--size=' "$T/out"
"$BONNIE" __complete vm -- >"$T/out" 2>&1
ok "completion before --: vm's options" grep -qx -- '--kernel=' "$T/out"
done_testing
