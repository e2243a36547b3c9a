#!/bin/sh
# Hostile or unusable directories: missing, a regular file, not writable
# for an unprivileged user, a read-only mount, a name with spaces and a
# newline, and a directory full of planted links and files with the names
# the tool uses.  The tool must refuse cleanly (exit 1, one line naming
# the path and the system's words), never write through a link or over a
# file it did not create, create its file O_CREAT|O_EXCL|O_NOFOLLOW with
# mode 0600, and pick another name when its first choice exists.
. tests/lib.sh
. tests/fault/lib.sh
scratch
chmod 755 "$T"
SMALL="-q -s 256k -c 4k -n 50 --cache=keep --no-space-check"

# refused DESC DIR TEXT: exit 1, one line naming DIR and TEXT, no file.
refused() {
	check "$1: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
	_r=0
	one_line "$T/err" || _r=1
	grep -qF "$2" "$T/err" || _r=1
	grep -q "$3" "$T/err" || _r=1
	check "$1: one line naming the path and '$3'" $_r
	[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
}

bn "$T/out" "$T/err" -d "$T/missing" $SMALL
refused "missing directory" "$T/missing" "No such file or directory"

: >"$T/plain"
bn "$T/out" "$T/err" -d "$T/plain" $SMALL
refused "a regular file" "$T/plain" "Not a directory"
check "a regular file: left empty" $([ ! -s "$T/plain" ]; echo $?)

mkdir "$T/no such dir"
rmdir "$T/no such dir"
bn "$T/out" "$T/err" -d "$T/no such dir" $SMALL
refused "missing directory with spaces" "$T/no such dir" "No such file"

# Not writable, as an unprivileged user.
if is_root && have setpriv; then
	mkdir "$T/rootonly"
	chmod 755 "$T/rootonly"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$BONNIE" -m "$TAG" -d "$T/rootonly" $SMALL \
	    >"$T/out" 2>"$T/err" </dev/null
	st=$?
	refused "not writable (uid 65534)" "$T/rootonly" "Permission denied"
	check "not writable: nothing created" \
	    $([ -z "$(ls -A "$T/rootonly")" ]; echo $?)
else
	skip "not writable: needs root and setpriv to run as nobody"
	skip "not writable: needs root and setpriv to run as nobody"
	skip "not writable: needs root and setpriv to run as nobody"
fi

# A read-only mount.
if is_root && mkdir "$T/ro" && mount -t tmpfs -o ro,size=1m tmpfs "$T/ro" \
    2>/dev/null; then
	T_MOUNTS="$T/ro"
	bn "$T/out" "$T/err" -d "$T/ro" $SMALL
	refused "read-only mount" "$T/ro" "Read-only file system"
	scratch_umount "$T/ro"
else
	skip "read-only mount: needs root and tmpfs"
	skip "read-only mount: needs root and tmpfs"
fi

# Spaces and a newline in the directory name: a full run works there.
W="$T/a dir
with a newline"
mkdir "$W"
bn "$T/out" "$T/err" -d "$W" $SMALL
check "spaces and a newline in the path: run succeeds (exit $st)" \
    $([ $st -eq 0 ]; echo $?)
[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
check "spaces and a newline: one report row" \
    $([ "$(grep -c "^bnft" "$T/out")" -eq 1 ]; echo $?)
check "spaces and a newline: nothing left" \
    $([ -z "$(ls -A "$W")" ]; echo $?)

# Planted names.  The random part cannot be guessed, so plant the
# pid-based names for the next pids (links to a victim outside, files,
# a directory, a FIFO, dangling links) and check after several runs that
# every planted entry and the victim are exactly as they were.
P=$T/planted
mkdir "$P"
printf 'victim\n' >"$T/victim"
last=$(cat /proc/sys/kernel/ns_last_pid 2>/dev/null || echo 1000)
i=1
while [ $i -le 60 ]; do
	n=$((last + i))
	ln -s "$T/victim" "$P/bonnie-ng.$n.link"
	ln -s "$T/nowhere" "$P/bonnie-ng.$n.dangling"
	printf 'planted %d\n' $n >"$P/bonnie-ng.$n.file"
	i=$((i + 1))
done
mkdir "$P/bonnie-ng.$((last + 1)).dir"
have mkfifo && mkfifo "$P/bonnie-ng.$((last + 2)).fifo"
ln -s "$T/victim" "$P/bonnie-ng."
ln -s "$T/victim" "$P/bonnie-ng"
snapshot() {
	(cd "$P" && for f in * .[!.]*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		if [ -L "$f" ]; then
			printf '%s -> %s\n' "$f" "$(readlink "$f")"
		elif [ -f "$f" ]; then
			printf '%s %s\n' "$f" "$(cksum <"$f")"
		else
			printf '%s %s\n' "$f" "$(ls -ld "$f" | cut -c1)"
		fi
	done; cksum <"$T/victim")
}
snapshot >"$T/before"
fails=0
for mode in fork thread fork; do
	bn "$T/out" "$T/err" -d "$P" $SMALL --seekers=$mode
	[ $st -eq 0 ] || { fails=$((fails + 1)); sed 's/^/#   /' "$T/err"; }
done
check "planted names: three runs succeed" $([ $fails -eq 0 ]; echo $?)
snapshot >"$T/after"
cmp -s "$T/before" "$T/after"
r=$?
check "planted names: every planted entry and the victim unchanged" $r
[ $r -eq 0 ] && diff "$T/before" "$T/after" | sed 's/^/#   /'
check "planted names: no new entry left" \
    $([ "$(ls -A "$P" | wc -l)" -eq "$(($(wc -l <"$T/before") - 1))" ]; echo $?)

# How the file is created, and what happens when the first name exists.
if [ -n "$INJECT" ]; then
	D=$T/flags
	mkdir "$D"
	rm -f "$T/fault.log"
	bn_fault write:1+:sleep=20000 "$T/out" "$T/err" -d "$D" -s 256k \
	    -c 4k -p write --no-space-check &
	pid=$!
	wait_for "$T/err" "Writing intelligently" 10
	mode=$(stat -c %a "$D"/bonnie-ng.* 2>/dev/null)
	wait "$pid"
	check "test file mode is 600 (got ${mode:-none})" \
	    $([ "$mode" = 600 ]; echo $?)
	first=$(grep '^open ' "$T/fault.log" | head -n 1)
	check "created with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600" \
	    $(echo "$first" | grep -q ',creat,excl,nofollow mode=0600 '; echo $?)
	check "every open of the test file has O_NOFOLLOW" \
	    $(! grep '^open ' "$T/fault.log" | grep -qv nofollow; echo $?)
	check "no open of the test file creates without O_EXCL" \
	    $(! grep '^open ' "$T/fault.log" | grep ',creat' | grep -qv ',excl'; echo $?)

	# The first name "exists": another name is tried, the run succeeds.
	rm -f "$T/fault.log"
	bn_fault open:1:EEXIST "$T/out" "$T/err" -d "$D" $SMALL
	check "first name exists: run succeeds with another (exit $st)" \
	    $([ $st -eq 0 ]; echo $?)
	names=$(grep '^open .*creat' "$T/fault.log" | sed 's/.*path=//' | sort -u | wc -l)
	check "first name exists: a second, different name was created" \
	    $([ "$names" -eq 2 ]; echo $?)
	check "first name exists: nothing left" $(no_test_files "$D"; echo $?)
else
	for i in 1 2 3 4 5 6 7; do skip "fault injection library not built"; done
fi

done_testing
