#!/bin/sh
# The README's first command, the one a newcomer pastes on a fresh Debian
# machine, run as it is in the two shells it meets there: a root shell
# without sudo (a minimal image or a container) and a user's shell with
# sudo.  apt-get and sudo are stand-ins that log what they were asked to
# do; make and the benchmark are not run (the first line alone is).
# run.sh: suites: plain: the README's first command, which no build changes
. tests/lib.sh
scratch

# The first line of the quick start's first code block.
first=$(awk '/^## Quick start/ { q = 1 } q && /^```/ { if (b) exit; b = 1; next }
    b { print; exit }' README.md)
check "the README has a first command" $([ -n "$first" ]; echo $?)
diag "$first"

mkdir "$T/bin"
for t in sh awk; do
	p=$(command -v $t) && ln -s "$p" "$T/bin/$t"
done
cat >"$T/bin/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$* (uid \$(id -u 2>/dev/null || echo ?))" >>"$T/log"
EOF
chmod +x "$T/bin/apt-get"

# A root shell without sudo: sudo is not on PATH.
: >"$T/log"
(cd "$T" && env -i PATH="$T/bin" /bin/sh -c "$first") >"$T/out" 2>&1
st=$?
[ $st -eq 0 ] || diag "$(cat "$T/out")"
check "without sudo: exit 0, no 'not found'" \
    $([ $st -eq 0 ] && ! grep -q 'not found' "$T/out"; echo $?)
check "without sudo: apt-get update, then install build-essential" \
    $([ "$(sed 's/ (uid.*//' "$T/log")" = "$(printf 'apt-get update\napt-get install -y build-essential')" ]; echo $?)

# With sudo: every apt-get runs under it.
cat >"$T/bin/sudo" <<EOF
#!/bin/sh
echo "sudo \$*" >>"$T/log"
exec "\$@"
EOF
chmod +x "$T/bin/sudo"
: >"$T/log"
(cd "$T" && env -i PATH="$T/bin" /bin/sh -c "$first") >"$T/out" 2>&1
st=$?
check "with sudo: exit 0, sudo first, then both apt-gets" \
    $([ $st -eq 0 ] && head -n 1 "$T/log" | grep -q '^sudo ' &&
    [ "$(grep -c '^apt-get ' "$T/log")" -eq 2 ]; echo $?)
[ $st -eq 0 ] || diag "$(cat "$T/out" "$T/log")"
check "README.md is under 10 KiB" $([ "$(wc -c <README.md)" -lt 10240 ]; echo $?)
done_testing
