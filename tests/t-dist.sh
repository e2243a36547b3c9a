#!/bin/sh
# make dist: bonnie-ng-VERSION.tar.gz holds exactly the files git tracks at
# HEAD under bonnie-ng-VERSION/, and the unpacked tarball builds without git
# into a program whose -V says the version.  The Debian changelog's newest
# entry is the same version (debian/rules checks it again at build time).
# When .ci/run runs the package step beside make check, that step builds
# the Debian packages from this tarball, unpacked, with the same failing
# git first in PATH, and checks the program's -V (.ci/package); .ci/run
# then sets BONNIE_NG_DIST_BUILT_BY_PACKAGE=1 and this test skips its own
# build of it (about 20 s of CPU) and checks the rest.
# run.sh: long: among the longest in CI; started first on a clean clone
# run.sh: suites: plain: the tarball and the changelog, which no build
#   changes
. tests/lib.sh
scratch

VERSION=$(cat VERSION)

ver=$(sed -n '1s/^bonnie-ng (\([^)]*\)).*/\1/p' debian/changelog)
[ "$ver" = "$VERSION" ] || diag "VERSION $VERSION, debian/changelog $ver"
check "debian/changelog's newest entry is VERSION ($VERSION)" \
    "$([ "$ver" = "$VERSION" ]; echo $?)"
if command -v dpkg-parsechangelog >/dev/null 2>&1; then
	ok "dpkg-parsechangelog agrees" sh -c \
	    "[ \"\$(dpkg-parsechangelog -S Version)\" = '$VERSION' ]"
else
	skip "dpkg-parsechangelog is not installed"
fi

if ! command -v git >/dev/null 2>&1 || ! git rev-parse HEAD >/dev/null 2>&1; then
	for i in 1 2 3 4 5 6; do skip "not a git checkout"; done
	done_testing
	exit
fi

TGZ=$T/bonnie-ng-$VERSION.tar.gz
make -s dist O="$T" >"$T/make" 2>&1
check "make dist exits 0" $?
ok "it made bonnie-ng-$VERSION.tar.gz" test -s "$TGZ"

tar -tzf "$TGZ" | sed -n "s|^bonnie-ng-$VERSION/||p" | grep -v '/$' |
    grep -v '^$' | sort >"$T/in-tar"
git ls-tree -r --name-only HEAD | sort >"$T/tracked"
cmp -s "$T/in-tar" "$T/tracked" ||
    diag "$(diff "$T/tracked" "$T/in-tar" | head -10)"
ok "the tarball holds exactly the tracked files" cmp -s "$T/in-tar" "$T/tracked"

if [ "${BONNIE_NG_DIST_BUILT_BY_PACKAGE:-}" = 1 ]; then
	for c in "the unpacked tarball builds" "the build never called git" \
	    "its bonnie-ng -V says $VERSION"; do
		skip "$c: .ci/package builds the packages from this tarball"
	done
	done_testing
	exit
fi

# Build it with a git that fails loudly first in PATH: the build must not
# need git.
mkdir -p "$T/u" "$T/fakebin"
tar -xzf "$TGZ" -C "$T/u"
printf '#!/bin/sh\necho "$*" >>"%s/git-called"\nexit 1\n' "$T" >"$T/fakebin/git"
chmod 755 "$T/fakebin/git"
(cd "$T/u/bonnie-ng-$VERSION" && PATH=$T/fakebin:$PATH \
    make -s O=. CFLAGS=-O0 bonnie-ng) >"$T/build" 2>&1
st=$?
[ $st -eq 0 ] || diag "$(tail -5 "$T/build")"
check "the unpacked tarball builds" $st
ok "the build never called git" test ! -e "$T/git-called"
ok "its bonnie-ng -V says $VERSION" sh -c \
    "[ \"\$('$T/u/bonnie-ng-$VERSION/bonnie-ng' -V)\" = 'bonnie-ng $VERSION' ]"

done_testing
