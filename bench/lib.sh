# Shared by the bench scripts (peers.sh, fio-compare.sh, verify-cost.sh,
# jobs.sh): the common options and set-up, tool checks and one function
# per measured piece of work.  Each measuring function prints "RATE CPU" on
# stdout (RATE in KiB/s, or seeks/s for seeks; CPU in percent of one core;
# "NA" when the tool gave no number) and keeps the tool's raw output under
# $RAW.
#
# The caller sets: BNG (bonnie-ng binary), DIR (test directory), SIZE_MIB,
# CHUNK (bytes), SEEKERS, SEEKS, RAW (a scratch directory for raw output);
# bench_opt and bench_setup below set most of them from the command line.

die() {
	echo "bench: $*" >&2
	exit 1
}

note() {
	echo "bench: $*" >&2
}

# bench_opt LETTERS OPT [VALUE]: take OPT when it is one of the options
# the bench scripts share and its letter is in LETTERS:
#   -d DIR   -s SIZE_MIB   -c CHUNK   -p PAIRS   -S SEEKERS   -n SEEKS
#   -b BNG (the bonnie-ng binary)     -k KEEP (keep raw output there)
#   -P HALT_POLL (idle vCPUs poll that many ns: bench_setup's halt_poll)
# Returns 1 for any other option, or one without its value, so that the
# caller can print its usage.  Every option takes a value: the caller
# shifts twice.
bench_opt() {
	case $2 in -[dscpSnbkP]) ;; *) return 1 ;; esac
	case $1 in *"${2#-}"*) ;; *) return 1 ;; esac
	[ $# -ge 3 ] || return 1
	case $2 in
	-d) DIR=$3 ;;
	-s) SIZE_MIB=$3 ;;
	-c) CHUNK=$3 ;;
	-p) PAIRS=$3 ;;
	-S) SEEKERS=$3 ;;
	-n) SEEKS=$3 ;;
	-b) BNG=$3 ;;
	-k) KEEP=$3 ;;
	-P) HALT_POLL=$3 ;;
	esac
}

BENCH_CLEAN="" BENCH_RESTORE=""

# bench_set FILE VALUE: write VALUE to the machine-wide setting FILE (a
# sysctl, a module parameter) for the run; its old value is put back at
# exit (bench_cleanup), even when the write failed or took only in part.
# Fails when FILE cannot be read or the write fails.  bench_old holds
# the old value.
bench_set() {
	bench_old=$(cat "$1" 2>/dev/null) || return 1
	BENCH_RESTORE="$BENCH_RESTORE$1 $bench_old
"
	echo "$2" >"$1" 2>/dev/null
}

# bench_clean PATH...: remove PATH (a file or a directory) on the way out.
bench_clean() {
	for p in "$@"; do
		BENCH_CLEAN="$BENCH_CLEAN
$p"
	done
}

bench_cleanup() {
	printf '%s\n' "$BENCH_CLEAN" | while IFS= read -r p; do
		[ -n "$p" ] && rm -rf "$p"
	done
	printf '%s' "$BENCH_RESTORE" | while read -r _f _v; do
		[ -n "$_f" ] && echo "$_v" >"$_f" 2>/dev/null
	done
	[ -z "${KEEP:-}" ] && [ -n "${RAW:-}" ] && rm -rf "$RAW"
	# shellcheck disable=SC2086 # a list of process ids
	[ -n "${AWAKE_PIDS:-}" ] && kill $AWAKE_PIDS 2>/dev/null
	return 0
}

# keep_awake: one busy loop per CPU in the idle scheduling class
# (SCHED_IDLE: it runs only when nothing else wants the CPU), so that no
# vCPU of a guest halts and waits for its host to wake it at the next
# interrupt; killed at exit.  A guest with haltpoll's polling off
# (guest_halt_poll_ns 0) wrote a new file at depth 32 up to 1.5 times as
# fast with them (bench/RESULTS.md, session 12).  Both sides of a pair
# run with them, so a tool that keeps its own CPU busy gains nothing by it.
keep_awake() {
	need_tools chrt
	_n=$(nproc)
	_c=0
	while [ "$_c" -lt "$_n" ]; do
		taskset -c "$_c" chrt -i 0 sh -c 'while :; do :; done' &
		AWAKE_PIDS="${AWAKE_PIDS:-} $!"
		_c=$((_c + 1))
	done
	note "every CPU kept awake: $_n busy loops in SCHED_IDLE for the run"
}

# halt_poll NS: a guest's idle vCPU polls up to NS nanoseconds before it
# halts (cpuidle-haltpoll's guest_halt_poll_ns, the kernel's default
# 200000), for the run, both sides; the old value is put back at exit.
# Where an idle vCPU halts at once (0), each completion that finds it
# halted waits for the host to wake it, and the tool that takes less CPU
# halts more: bonnie-ng's reads (bench/RESULTS.md, sessions 12 and 14).
# bench_setup calls it when -P (bench_opt's letter P) gave HALT_POLL.
HPN_FILE=/sys/module/haltpoll/parameters/guest_halt_poll_ns
halt_poll() {
	[ -w "$HPN_FILE" ] || die "-P: no $HPN_FILE to write (not a guest with cpuidle-haltpoll)"
	bench_set "$HPN_FILE" "$1" || die "-P: cannot write $HPN_FILE"
	note "idle vCPUs poll up to $1 ns before they halt (guest_halt_poll_ns $bench_old -> $1, restored at exit)"
}

# report_head SCRIPT: the first line of a script's report, and a second
# when every CPU was kept awake (-W) for the run.
report_head() {
	echo "# bench/$1 on $(date -u +%Y-%m-%dT%H:%M:%SZ); machine: $(machine_line)"
	[ "${AWAKE:-0}" -eq 0 ] ||
	    echo "# every CPU kept awake (-W): a busy loop per CPU in SCHED_IDLE"
}

# bench_setup NAME NUMBER...: check that every NUMBER is a whole number,
# that DIR is a directory and BNG an executable (bng_check); make RAW, which is KEEP
# when -k gave one (kept) or else a new temporary directory bench-NAME.*
# (removed at exit with every bench_clean path); INT and TERM exit 130;
# free page reporting paused for the run (pause_reporting).
bench_setup() {
	name=$1; shift
	for v in "$@"; do
		case $v in ''|*[!0-9]*) die "not a whole number: '$v'" ;; esac
	done
	[ -d "$DIR" ] || die "no such directory: $DIR"
	bng_check -b
	if [ -n "${KEEP:-}" ]; then
		mkdir -p "$KEEP" || die "cannot create $KEEP"
		RAW=$KEEP
	else
		RAW=$(mktemp -d "${TMPDIR:-/tmp}/bench-$name.XXXXXX") ||
		    die "mktemp failed"
	fi
	trap bench_cleanup EXIT
	trap 'exit 130' INT TERM
	pause_reporting
	if [ -n "${HALT_POLL:-}" ]; then
		case $HALT_POLL in *[!0-9]*) die "not a whole number: '$HALT_POLL'" ;; esac
		halt_poll "$HALT_POLL"
	fi
}

# bng_check OPT: BNG is an executable, made absolute (the scripts run
# bonnie-ng from other directories); OPT names the option that sets it.
bng_check() {
	[ -x "$BNG" ] || die "no bonnie-ng binary at $BNG (run make first, or $1 PATH)"
	case $BNG in /*) ;; *) BNG=$(pwd)/$BNG ;; esac
}

# in_list LIST WORD: is WORD one of the comma-separated LIST?
in_list() {
	case ",$1," in *,"$2",*) return 0 ;; esac
	return 1
}

# need_tools TOOL...: install the Debian packages that provide the missing
# tools when running as root; otherwise say what to install and stop.
need_tools() {
	pkgs=""
	for t in "$@"; do
		case $t in
		fio)        command -v fio >/dev/null 2>&1 || pkgs="$pkgs fio" ;;
		bonnie++)   command -v bonnie++ >/dev/null 2>&1 ||
		            [ -x /usr/sbin/bonnie++ ] || pkgs="$pkgs bonnie++" ;;
		jq)         command -v jq >/dev/null 2>&1 || pkgs="$pkgs jq" ;;
		time)       [ -x /usr/bin/time ] || pkgs="$pkgs time" ;;
		cc)         command -v cc >/dev/null 2>&1 || pkgs="$pkgs gcc libc6-dev" ;;
		chrt)       { command -v chrt && command -v taskset; } >/dev/null 2>&1 ||
		            pkgs="$pkgs util-linux" ;;
		liburing)   [ -r /usr/include/liburing.h ] || pkgs="$pkgs liburing-dev" ;;
		esac
	done
	[ -z "$pkgs" ] && return 0
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		note "installing:$pkgs"
		DEBIAN_FRONTEND=noninteractive apt-get install -y $pkgs >&2 ||
		    die "apt-get install -y$pkgs failed"
	else
		die "missing tools; as root run: apt-get install -y$pkgs"
	fi
	if ! command -v bonnie++ >/dev/null 2>&1 && [ -x /usr/sbin/bonnie++ ]; then
		PATH=$PATH:/usr/sbin
	fi
}

# Seek work is counted as bonnie-ng counts it: one seek is a read of one
# chunk, and one seek in ten also writes the chunk back, so SEEKS seeks are
# SEEKS * 1.1 I/O operations.  fio gets that many operations in all (split
# over its jobs) with a 90/10 mix, and its figure is converted back:
# seeks/s = (reads + writes) / 1.1 / seconds.
fio_ios_per_job() {
	echo $(( (SEEKS * 11 / 10 + SEEKERS - 1) / SEEKERS ))
}

FIO_FILE=""

# fio_run TAG ARGS...: one fio job on $FIO_FILE, JSON kept in $RAW/TAG.json.
fio_run() {
	tag=$1; shift
	fio --output-format=json --output="$RAW/$tag.json" \
	    --filename="$FIO_FILE" --size="${SIZE_MIB}m" --bs="$CHUNK" \
	    --ioengine=psync --fallocate=none "$@" >/dev/null 2>"$RAW/$tag.err" ||
	    { note "fio failed, see $RAW/$tag.err"; return 1; }
}

# fio_jq TAG EXPR: evaluate EXPR on the group's first job.
fio_jq() {
	jq -r ".jobs[0] | $2" "$RAW/$1.json"
}

# sample GROUP PHASE PAIR SIDE "RATE CPU": one line of $SAMPLES (tab
# separated, a missing figure NA), as ratio.awk and table.awk read them.
sample() {
	# $5 is split into its two figures on purpose.
	# shellcheck disable=SC2086
	set -- "$1" "$2" "$3" "$4" $5
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-NA}" \
	    "${6:-NA}" >>"$SAMPLES"
}

# dev_wms: the weighted milliseconds of I/O (/proc/diskstats' eleventh
# field) of the device under DIR, for the queue at the device around a
# run.
dev_wms() {
	_dv=$(df -P "$DIR" 2>/dev/null |
	    awk 'NR == 2 { sub("^/dev/", "", $1); print $1 }')
	awk -v d="$_dv" '$3 == d { print $14 }' /proc/diskstats 2>/dev/null
}

# qd_fio TAG RW BS [EXTRA]: one fio run of QJ jobs at depth QD on QENG, one
# file each in QDIR, "RATE CPU" (KiB/s, or I/Os per second for random
# reads); the device's weighted milliseconds over the run go to TAG.wms.
qd_fio() {
	tag=$1 rw=$2 bs=$3; shift 3
	w0=$(dev_wms)
	# $FIO_X is split into its options on purpose.
	# shellcheck disable=SC2086
	fio --output-format=json --output="$RAW/$tag.json" \
	    --directory="$QDIR" --filename_format='f.$jobnum' \
	    --numjobs="$QJ" --group_reporting \
	    --size="${SIZE_MIB}m" --bs="$bs" \
	    --ioengine="$QENG" --iodepth="$QD" --direct=1 \
	    --fallocate=none --name="$rw" --rw="$rw" ${FIO_X:-} "$@" \
	    >/dev/null 2>"$RAW/$tag.err" || { echo "NA NA"; return; }
	w1=$(dev_wms)
	[ -n "$w0" ] && [ -n "$w1" ] && echo $((w1 - w0)) >"$RAW/$tag.wms"
	case $rw in
	write) fio_jq "$tag" '"\(.write.bw) \(.usr_cpu + .sys_cpu)"' ;;
	read)  fio_jq "$tag" '"\(.read.bw) \(.usr_cpu + .sys_cpu)"' ;;
	*)     fio_jq "$tag" '"\(.read.iops + .write.iops) \(.usr_cpu + .sys_cpu)"' ;;
	esac
}

# fio_mode MODE: the fio options for reading in MODE: direct (O_DIRECT),
# keep (buffered, cache left alone) or cold (buffered, fio drops the file's
# cache at the start with invalidate=1).
fio_mode() {
	case $1 in
	direct) FIO_MODE="--direct=1" ;;
	keep)   FIO_MODE="--direct=0 --invalidate=0" ;;
	*)      FIO_MODE="--direct=0 --invalidate=1" ;;
	esac
}

# fio_write MODE TAG: sequential write of a fresh file, like bonnie-ng's
# block write (which creates its file and counts the fsync before close).
# MODE direct: O_DIRECT; cold: buffered, fsync at the end (end_fsync=1).
fio_write() {
	rm -f "$FIO_FILE"
	ftag=$2
	case $1 in
	direct) set -- --direct=1 --end_fsync=1 ;;
	*)      set -- --direct=0 --end_fsync=1 ;;
	esac
	fio_run "$ftag" --name=write --rw=write "$@" || { echo "NA NA"; return; }
	fio_jq "$ftag" '"\(.write.bw) \(.usr_cpu + .sys_cpu)"'
}

# fio_read MODE TAG: sequential read; buffered reads start with fio's own
# cache drop (invalidate=1), as bonnie-ng's cold mode drops before reading.
# MODE keep: buffered, cache left alone (invalidate=0).
fio_read() {
	ftag=$2
	fio_mode "$1"
	fio_run "$ftag" --name=read --rw=read $FIO_MODE || { echo "NA NA"; return; }
	fio_jq "$ftag" '"\(.read.bw) \(.usr_cpu + .sys_cpu)"'
}

# fio_seeks MODE TAG: random 90/10 read/write, one job per seeker on the
# same file, SEEKS * 1.1 operations in all, uniform offsets that may repeat
# (norandommap) as bonnie-ng's seekers draw them.
fio_seeks() {
	ftag=$2
	fio_mode "$1"
	fio_run "$ftag" --name=seeks --rw=randrw --rwmixread=90 --norandommap \
	    --randrepeat=0 --numjobs="$SEEKERS" --group_reporting \
	    --number_ios="$(fio_ios_per_job)" $FIO_MODE || { echo "NA NA"; return; }
	# With group_reporting, read.runtime is the group's span (ms) and
	# usr_cpu/sys_cpu are per job; report the jobs' sum as %CPU.
	fio_jq "$ftag" '((.read.total_ios + .write.total_ios) / 1.1 /
	    ([.read.runtime, .write.runtime] | max) * 1000) as $r |
	    "\($r) \((.usr_cpu + .sys_cpu) * '"$SEEKERS"')"'
}

# bng_probe: does this bonnie-ng write the JSON record?  Sets BNG_JSON to
# 1 or 0; without the record the figures come from the classic text row.
bng_probe() {
	BNG_JSON=0
	if "$BNG" -d "$DIR" -s 1m -c "$CHUNK" -p write -q \
	    --json "$RAW/probe.json" >/dev/null 2>&1 && [ -s "$RAW/probe.json" ] &&
	    jq -e .runs "$RAW/probe.json" >/dev/null 2>&1; then
		BNG_JSON=1
	fi
}

# bng_run TAG ARGS...: one bonnie-ng run with the common size and chunk;
# the JSON record (or the text report) is kept in $RAW/TAG.json (.out).
bng_run() {
	tag=$1; shift
	if [ "${BNG_JSON:-1}" -eq 1 ]; then
		set -- --json "$RAW/$tag.json" "$@"
	else
		rm -f "$RAW/$tag.json"
	fi
	"$BNG" -d "$DIR" -s "${SIZE_MIB}m" -c "$CHUNK" -q "$@" \
	    >"$RAW/$tag.out" 2>"$RAW/$tag.err" ||
	    note "bonnie-ng failed (exit $?), see $RAW/$tag.err"
}

# bng_get TAG PHASE: "RATE CPU" of one phase, from the record when there
# is one, else from the classic row (label, MiB, then K/sec and %CPU for
# putc, write, rewrite, getc, read, and seeks/s and %CPU; "-" = not run).
bng_get() {
	if [ -s "$RAW/$1.json" ]; then
		jq -r ".runs[0].phases.$2 | if . == null then \"NA NA\"
		    else \"\\(.rate) \\(.cpu_pct)\" end" "$RAW/$1.json" 2>/dev/null ||
		    echo "NA NA"
		return
	fi
	case $2 in
	putc) f=3 ;; write) f=5 ;; rewrite) f=7 ;;
	getc) f=9 ;; read) f=11 ;; seeks) f=13 ;;
	esac
	awk -v f="$f" 'NF == 14 && $2 ~ /^[0-9]+$/ { v = $f; c = $(f + 1) }
	    END {
		if (v !~ /^[0-9.]+$/) v = "NA"
		if (c !~ /^[0-9.]+$/) c = "NA"
		print v, c
	    }' "$RAW/$1.out" 2>/dev/null || echo "NA NA"
}

# bng_get_all TAG PHASE: "RATE CPU" as bng_get, but CPU is all the CPU
# the phase cost (its user_s + sys_s, the untimed fill of new data and
# any drop included) over its timed seconds, so that RATE / (CPU / 100) is
# the work per CPU second it really cost (the record's cpu_pct spreads
# that CPU over the timed and the fill's seconds, as %CPU of a phase
# should; it may pass 100 here).
bng_get_all() {
	jq -r ".runs[0].phases.$2 | if . == null or .elapsed_s <= 0 then
	    \"NA NA\" else
	    \"\\(.rate) \\(100 * (.user_s + .sys_s) / .elapsed_s)\" end" \
	    "$RAW/$1.json" 2>/dev/null || echo "NA NA"
}

# bpp_run TAG ARGS...: one bonnie++ run with the common size and chunk.
# bonnie++ wants a file of at least twice RAM; -r SIZE/2 tells it that RAM
# is half the file so it accepts the size.  -n 0 skips the file tests.
bpp_run() {
	tag=$1; shift
	set -- -d "$DIR" -s "${SIZE_MIB}:${CHUNK}" -r "$((SIZE_MIB / 2))" \
	    -n 0 -q -m bench "$@"
	[ "$(id -u)" -eq 0 ] && set -- "$@" -u root
	bonnie++ "$@" >"$RAW/$tag.csv" 2>"$RAW/$tag.err" ||
	    note "bonnie++ failed, see $RAW/$tag.err"
}

# bpp_get TAG PHASE: "RATE CPU" from bonnie++'s CSV (format 1.98);
# "+++++" (a test too short to time) becomes NA.
bpp_get() {
	case $2 in
	putc) f=10 ;; write) f=12 ;; rewrite) f=14 ;;
	getc) f=16 ;; read) f=18 ;; seeks) f=20 ;;
	esac
	awk -F, -v f="$f" '$1 ~ /^1\.9/ {
		v = $f; c = $(f + 1)
		if (v !~ /^[0-9.]+$/) v = "NA"
		if (c !~ /^[0-9.]+$/) c = "NA"
		print v, c; found = 1; exit
	} END { if (!found) print "NA NA" }' "$RAW/$1.csv" 2>/dev/null ||
	    echo "NA NA"
}

# machine_line: one line about the machine for the report header.
machine_line() {
	fs=$(df -PT "$DIR" 2>/dev/null | awk 'NR == 2 { print $2 " on " $1 }')
	ram=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
	virt=$(systemd-detect-virt --vm 2>/dev/null) || virt=""
	[ "$virt" = none ] && virt=""
	[ -z "$virt" ] && grep -q hypervisor /proc/cpuinfo 2>/dev/null &&
	    virt="yes (cpu flag)"
	ctr=$(systemd-detect-virt --container 2>/dev/null) || ctr=""
	[ "$ctr" = none ] && ctr=""
	# How an idle CPU waits: in a guest, a vCPU that halts is woken by
	# the host, and each completion that finds it halted waits for that
	# (bench/RESULTS.md, session 12: a busy loop in the idle class made
	# writes of a new file at depth 32 up to 1.5 times as fast).
	idle=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null) || idle=""
	hp=$(cat "$HPN_FILE" 2>/dev/null) || hp=""
	echo "$(uname -sr), $(nproc) CPUs ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)), RAM $ram, $DIR: ${fs:-?}, virtual machine: ${virt:-none seen}${ctr:+, container: $ctr}, cpuidle: ${idle:-none}${hp:+ (guest_halt_poll_ns $hp)}; ${PR_LINE:-free page reporting: not asked}"
}

# pause_reporting: a guest whose virtio balloon reports free pages to
# the host (free page reporting) gets freed memory taken back by the host,
# and the next allocation of it faults on the host: a 1 GiB write to a
# memory file system here ran at 0.6 to 3.8 GB/s, one run to the next, and
# at 3.6 to 3.9 with reporting paused.  Pause it for the run (no free
# block is of an order above the largest) and restore it at exit; say so
# in the report: PR_LINE is the line for its header.  The pages reported
# before the pause stay unbacked on the host until the guest uses them:
# all but 1 GiB of the free memory is touched once (bench/prefault.c),
# and the seconds its first and last GiB took go in PR_LINE (on the AMD
# kind, 3.3 s a GiB right after the pause, 0.4 s once backed: a 1 GiB
# tmpfs write takes 0.5 s).
# BENCH_PAUSE=0 in the environment leaves it alone (a machine others
# share, or figures that do not depend on it, as instruction counts).
PR_FILE=/sys/module/page_reporting/parameters/page_reporting_order
pause_reporting() {
	PR_LINE="free page reporting: none"
	if [ "${BENCH_PAUSE:-1}" = 0 ]; then
		PR_LINE="free page reporting: not paused (BENCH_PAUSE=0)"
		return 0
	fi
	[ -r "$PR_FILE" ] || return 0
	if [ -w "$PR_FILE" ] && bench_set "$PR_FILE" 11; then
		PR_LINE="free page reporting: paused (page_reporting_order $bench_old -> 11, restored at exit)"
		prefault
	else
		PR_LINE="free page reporting: on (page_reporting_order $(cat "$PR_FILE"), not writable): in-memory writes vary with it"
	fi
}

# huge_pages N: at least N huge pages reserved (vm.nr_hugepages) for the
# run, for fio's --iomem=shmhuge; the old count is put back at exit
# (bench_cleanup).  Fails when the kernel keeps fewer than N.
HP_FILE=/proc/sys/vm/nr_hugepages
huge_pages() {
	_hp=$(cat "$HP_FILE" 2>/dev/null) || return 1
	[ "$_hp" -ge "$1" ] && return 0
	bench_set "$HP_FILE" "$1" || return 1
	[ "$(cat "$HP_FILE")" -ge "$1" ]
}

# prefault: touch the free memory but 1 GiB once (pause_reporting), with
# bench/prefault.c built into RAW ($here: the bench directory, which every
# script sets).
prefault() {
	_pf=$RAW/prefault
	_mib=$(awk '/^MemAvailable/ { print int($2 / 1024) - 1024 }' /proc/meminfo)
	if [ "${_mib:-0}" -le 0 ] ||
	    ! cc -O2 -o "$_pf" "$here/prefault.c" 2>/dev/null; then
		PR_LINE="$PR_LINE; free memory not touched first"
		return 0
	fi
	note "touching $_mib MiB of free memory once, so that the host backs it"
	_s=$("$_pf" "$_mib" | awk 'NR == 1 { f = $1 } { l = $1 } END {
	    printf "%.2f s the first GiB, %.2f s the last", f, l }')
	PR_LINE="$PR_LINE; $_mib MiB of free memory touched first ($_s)"
}

# load_line: the load average now, to show how busy the machine was.
load_line() {
	cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime
}
