#!/bin/sh
# bench/vm-boot.sh: bonnie-ng vm's overhead a cell, from qemu's start to
# the guest's first phase (the firmware, the kernel's boot, the initramfs
# unpacked, the modules loaded, the test disk mounted, the run's own set-up),
# for Debian's 6.1 and 6.12 under the accelerator the machine has (TCG
# without /dev/kvm); and the time to make each kernel ready from its package
# (unpack, the modules' dependencies, the initramfs), once per kernel and
# command.
#
#   sh bench/vm-boot.sh [-b BNG] [-r ROUNDS] [-K KERNELS-DIR]
#
# The kernels are .ci/kernels's (fetched when missing).  Each round boots
# both kernels in turn (bonnie-ng vm's interleaved order) with a 32 MiB
# write: the cell's time is its overhead and a second or two of writing.
# Prints the figures of every cell, then per kernel the median, the least
# and the most, and the load average before and after.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
BNG=$here/../bonnie-ng
ROUNDS=5
KDIR=${BONNIE_NG_KERNELS:-/var/cache/bonnie-ng/kernels}
while getopts b:r:K: o; do
	case $o in
	b) BNG=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	K) KDIR=$OPTARG ;;
	*) echo "usage: sh bench/vm-boot.sh [-b BNG] [-r ROUNDS] [-K DIR]" >&2
	   exit 2 ;;
	esac
done
KDIR=$(sh "$here/../.ci/kernels" "$KDIR")
deb61=$(ls "$KDIR"/linux-image-6.1.0-*-amd64_*.deb | sort -V | tail -1)
deb612=$(ls "$KDIR"/linux-image-6.12.*-amd64_*.deb | sort -V | tail -1)
W=$(mktemp -d "${TMPDIR:-/tmp}/vm-boot.XXXXXX")
trap 'rm -rf "$W"' EXIT
echo "vm-boot: $(date '+%Y-%m-%d %H:%M'), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs, $([ -w /dev/kvm ] && echo KVM || echo TCG)"
echo "vm-boot: $(basename "$deb61") and $(basename "$deb612"), $ROUNDS rounds"
mkdir "$W/out" "$W/tmp"
t0=$(date +%s)
TMPDIR=$W/tmp "$BNG" vm --kernel "$deb61" --kernel "$deb612" --mem 256m \
    --rounds "$ROUNDS" --out "$W/out" -- -s 32 -p write \
    >"$W/vm.out" 2>"$W/vm.err" || { cat "$W/vm.err"; exit 1; }
t1=$(date +%s)
# "vm: kernel 2/2: 6.12...: ..." lines come with no time: the time to
# the first cell's start is the kernels' preparation.
grep '^vm: cell .*: ran in' "$W/vm.err" | sed 's/^/  /'
echo "vm-boot: $((t1 - t0)) s in all, load $(cut -d' ' -f1-3 /proc/loadavg)"
grep '^vm: cell .*: ran in' "$W/vm.err" |
    sed 's/^vm: cell [0-9]*\/[0-9]*: \([^ ]*\)\.256M\.r[0-9]*: ran in .*, its first phase \([0-9.]*\) s after.*/\1 \2/' |
    sort -k1,1 -k2,2n | awk '
	{ v[$1, ++n[$1]] = $2 }
	END {
		for (k in n) {
			m = n[k]
			if (m % 2) med = v[k, (m + 1) / 2]
			else med = (v[k, m / 2] + v[k, m / 2 + 1]) / 2
			printf "vm-boot: %s: first phase after %.1f s (median of %d; %.1f to %.1f)\n", k, med, m, v[k, 1], v[k, m]
		}
	}'
grep '^vm: kernel .* ready in' "$W/vm.err" | sed 's/^/  /'
