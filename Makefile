# bonnie-ng: build, test, install.
#
# Objects go to $(O)/obj and the program to $(O)/bonnie-ng, so that several
# builds (plain, sanitized, a developer's worktree) never share objects.
# The user's CFLAGS stay separate from the flags the project needs.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR  ?= $(DATADIR)/man
DOCDIR  ?= $(DATADIR)/doc/bonnie-ng
# Shell completion: bash-completion's directory, and a directory in zsh's
# default $fpath (Debian's package uses /usr/share/zsh/vendor-completions).
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR  ?= $(DATADIR)/zsh/site-functions
DESTDIR ?=

CC      ?= cc
CFLAGS  ?= -O2 -g
O       ?= .

WARN    = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
          -Wpointer-arith -Wformat=2 -Wvla
ifeq ($(WERROR),1)
WARN   += -Werror
endif
ifneq ($(SANITIZE),)
SANFLAGS = -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
ALL_CFLAGS  = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
              -DBONNIE_NG_VERSION='"$(VERSION)"' -Iinclude $(WARN) $(SANFLAGS) \
              $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)
LIBS        = -lpthread -lm

# Files named *-linux.c are built on Linux, *-posix.c everywhere else.
UNAME_S := $(shell uname -s)
ifeq ($(UNAME_S),Linux)
PLAT = linux
else
PLAT = posix
endif

# Every src/*.c except main.c and the other platform's files is part of
# the library that the tests link; main.c only parses options.
# The team is the fork back end (team-fork.c) under team-plan.c's plan,
# over team-host.c's wire of one rank; make mpi puts team-mpi.c's MPI
# wire in its place, one fork team per rank.  team.c, a worker's side of
# the team, is in both.
LIB_SRC  = $(filter-out src/main.c src/team-mpi.c $(wildcard src/*-linux.c src/*-posix.c), \
             $(wildcard src/*.c)) $(wildcard src/*-$(PLAT).c)
LIB_OBJ  = $(patsubst src/%.c,$(O)/obj/%.o,$(LIB_SRC))
MAIN_OBJ = $(O)/obj/main.o
# SHARE_O=DIR: a build for another system (UNAME_S) with the same compiler
# and flags as DIR's takes DIR's objects, made first, for every file but
# the platform layer's halves (*-linux.c, *-posix.c): UNAME_S picks
# files, it changes no flag, so the other objects would be the same.
ifneq ($(SHARE_O),)
LIB_OBJ  = $(patsubst src/%.c,$(SHARE_O)/obj/%.o,$(filter-out \
             $(wildcard src/*-linux.c src/*-posix.c),$(LIB_SRC))) \
           $(patsubst src/%.c,$(O)/obj/%.o,$(wildcard src/*-$(PLAT).c))
MAIN_OBJ = $(SHARE_O)/obj/main.o
endif
TEST_SRC = $(wildcard tests/t-*.c)
TEST_BIN = $(patsubst tests/%.c,$(O)/tests/%,$(TEST_SRC))
BIN      = $(O)/bonnie-ng

.PHONY: all check check-quick check-asan check-asan-build check-posix check-vm install uninstall \
	clean bench fuzz \
	fuzz-build analyze analyze-cppcheck analyze-mpi check-tsan check-valgrind dist \
	install-mpi mpi mpi-if-any

all: $(BIN)

# The AddressSanitizer build's programs carry tests/analysis/lsan-exit.c:
# LeakSanitizer's options for the build, and glibc's blocks freed at exit
# (see check-asan below).
ifneq ($(findstring address,$(SANITIZE)),)
SAN_OBJ = $(O)/obj/lsan-exit.o
endif

$(BIN): $(MAIN_OBJ) $(SAN_OBJ) $(O)/obj/libbonnie.a
	$(CC) $(ALL_LDFLAGS) -o $@ $(MAIN_OBJ) $(SAN_OBJ) $(O)/obj/libbonnie.a $(LIBS)

$(O)/obj/libbonnie.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

$(O)/obj/%.o: src/%.c $(wildcard include/*.h) VERSION
	@mkdir -p $(O)/obj
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/obj/lsan-exit.o: tests/analysis/lsan-exit.c
	@mkdir -p $(O)/obj
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The tests know which half of the platform layer they are linked with.
$(O)/tests/%: tests/%.c tests/tap.h $(SAN_OBJ) $(O)/obj/libbonnie.a
	@mkdir -p $(O)/tests
	$(CC) $(ALL_CFLAGS) -Itests -DBONNIE_NG_PLAT='"$(PLAT)"' $(ALL_LDFLAGS) \
	    -o $@ $< $(SAN_OBJ) $(O)/obj/libbonnie.a $(LIBS)
# The replay test compiles the fuzz harnesses in.
$(O)/tests/t-fuzz-replay: $(wildcard tests/fuzz/*.c tests/fuzz/*.h)

tests: $(BIN) $(TEST_BIN)

# make check: every test on the plain build (the README's command), with
# the MPI build's tests when mpicc is there, CHECK_JOBS tests at a time.
# Twice the cores: most tests wait (on injected sleeps, on the events they
# stop at, on the disk), so one a core leaves the CPUs idle.
# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer is
# make check-asan (in build-asan/), a step of its own in .ci/run, as
# ThreadSanitizer's and valgrind's are: side by side inside make check the
# two halves took twice the CPU, and make check 9-10 minutes on 2 cores.
NPROC      := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
CHECK_JOBS ?= $(shell echo $$((2 * $(NPROC))))
# The sanitized build uses clang when it is there (ASAN_CC=gcc for gcc's):
# gcc links its sanitizers' shared runtimes (libasan, libubsan and
# libstdc++), whose data LeakSanitizer scans at every exit, page by page;
# clang links one static runtime.  A bare --version took 64 ms of CPU
# under gcc's (4339 page faults), 49 under clang's (3456); the whole make
# check-asan, build and suite, alternating at load 6-10: gcc (-g) 87 + 547
# CPU-s, clang (-g1) 104 + 493 (clang compiles slower, the suite runs
# 10% faster).  In CI (.ci/run, ee83416) the two cancelled: the build
# rose from about 102 to 131 CPU-s, the suite fell from 453 to 422, the
# step stayed at 553.  clang stays for its checks: clang's -fsanitize=undefined has gcc's checks for C
# (their manuals' lists) and float-cast-overflow besides; neither checks
# float-divide-by-zero.  The directory remembers its compiler
# (build-asan/cc): another one starts it afresh, since the two runtimes'
# objects do not mix.
ifeq ($(origin ASAN_CC),undefined)
ASAN_CC    := $(if $(shell command -v clang 2>/dev/null),clang,$(CC))
endif
# Line tables only (-g1): the reports name file:line and the inlined
# frames as with -g, and the build took 12-15 CPU-s less.
ASAN_CFLAGS ?= -O1 -g1
ASAN_BUILD  = $(MAKE) O=build-asan CC=$(ASAN_CC) SANITIZE=address,undefined \
              CFLAGS="$(ASAN_CFLAGS)" tests
# At every exit LeakSanitizer looked for pointers to the blocks still
# allocated in each module's writable data too, in clang's build mostly
# the runtime's own stack depot tables, 8.4 MiB of zeros nothing else
# touches.  The build's programs carry tests/analysis/lsan-exit.c: their
# default is LSAN_OPTIONS=use_globals=0, and glibc frees its own blocks
# at exit before the check, so a block that only a global holds at exit
# is reported (stricter, as make check-valgrind's "still reachable": the
# suite found one, src/text.c's locale, now freed); a planted leak is
# caught as before, with its file:line.  LSAN_OPTIONS=use_globals=1 scans
# the data again.  --version took 73 ms of CPU before, 43 after (3470 ->
# 1331 page faults; 36 with no leak check, 4.5 plain), a small run 112 ->
# 86.  The suite starts 1285 of the build's programs; 1173 leave through
# exit() with the check, which runs in a task of its own: 2226 faults and
# 24 ms each before, 202 and under 1 after (process accounting); the
# suite 440 -> 412 CPU-s (load 4-8).  Start-up is now the larger cost, 31
# ms a process over the plain build's.  A smaller quarantine_size_mb
# would shorten the window in which a use after free is caught (16 MiB
# saved nothing measurable on the heavy tests), a smaller
# malloc_context_size the reports' allocation stacks; neither is taken.
ASAN_RUN    = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
              UBSAN_OPTIONS=print_stacktrace=1 BONNIE_NG_SANITIZED=1 \
              sh tests/run.sh -j $(CHECK_JOBS) build-asan
# A bare make check (the README's command) builds on every core, as make
# -j does: serial, the build held an idle make check's first 80 s.
check:
	+$(MAKE) $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) $(BIN) $(TEST_BIN) mpi-if-any
	sh tests/run.sh -j $(CHECK_JOBS) $(O)

# The MPI build and its tests come along when mpicc is there; it takes
# the plain build's objects, made first (never by two makes at once).
mpi-if-any: $(MAIN_OBJ) $(LIB_OBJ)
	@if command -v $(MPICC) >/dev/null 2>&1; then $(MAKE) -s mpi; fi

# make check-quick: the C unit tests and a few quick shell tests that need
# neither root nor any tool beyond the build (the Debian package runs it).
QUICK_SH = t-cli.sh t-badopts.sh t-report-e2e.sh
check-quick: $(BIN) $(TEST_BIN) $(INJECT)
	sh tests/run.sh -j $(CHECK_JOBS) $(O) $(notdir $(TEST_SRC)) $(QUICK_SH)

# The sanitized build alone (to try one test under it:
# sh tests/run.sh build-asan t-NAME).
check-asan-build:
	@[ "$$(cat build-asan/cc 2>/dev/null)" = "$(ASAN_CC)" ] || \
	    { rm -rf build-asan && mkdir -p build-asan && \
	    echo "$(ASAN_CC)" >build-asan/cc; }
	+$(ASAN_BUILD)

check-asan: check-asan-build
	$(ASAN_RUN)

# make check-posix: the portable half of the platform layer (*-posix.c),
# the files a BSD builds, made here on Linux with glibc (build-posix/) and
# with musl (build-posix-musl/, when $(MUSL_CC) is there), so that a
# glibc-only call or a Linux-only assumption shows here.  The suite runs
# once, on the musl build (the same objects as glibc's, the stricter libc)
# or on the glibc one where there is no musl-gcc: a second run of the
# same objects cost CI 220 s of CPU and found nothing the first did not.
# Beside the musl build, glibc's compiles the portable half only and
# links the program, with the plain build's other objects (SHARE_O): what
# glibc's headers make of *-posix.c is all it adds; its whole build, test
# programs included, cost CI's step about 40 s of CPU.
# The musl build is at -O1 without debug information (POSIX_CFLAGS): the
# warnings that need the optimiser are the plain build's (-O2, WERROR in
# CI) and, for *-posix.c, glibc's half's (the plain flags).  From scratch
# at -j2 (load 5-9, two runs each) it took 47 CPU-s at -O2 -g, 34 at -O1
# -g0, 26 at -O0 -g0; eleven of the suite's tests took as long on the -O1
# build as on the -O2 one (52.7 and 52.6 CPU-s) and 62.4 on the -O0 one.
# A test that needs Linux skips, saying why.
# make check-vm: bonnie-ng vm booting real kernels under qemu
# (tests/t-vm-boot.sh), Debian's newest 6.1 and 6.12, which .ci/kernels
# fetches with apt-get download into $(KERNELS) (outside the tree) unless
# they are there.  The vm's quick tests (t-vm, t-cpio, t-moddep,
# t-mailbox) are make check's, not run again here.
KERNELS    ?= $(BONNIE_NG_KERNELS)
check-vm: $(BIN)
	BONNIE_NG_KERNELS=$$(sh .ci/kernels $(KERNELS)) && \
	    export BONNIE_NG_KERNELS && \
	    sh tests/run.sh $(O) t-vm-boot

MUSL_CC    ?= musl-gcc
POSIX_CFLAGS ?= -O1 -g0
POSIX_RUN   = sh tests/run.sh -j $(CHECK_JOBS)
check-posix: $(MAIN_OBJ) $(LIB_OBJ)
	@if command -v $(MUSL_CC) >/dev/null 2>&1; then \
		echo "$(MAKE) O=build-posix SHARE_O=$(O) UNAME_S=FreeBSD build-posix/bonnie-ng"; \
		$(MAKE) O=build-posix SHARE_O=$(O) UNAME_S=FreeBSD build-posix/bonnie-ng || exit 1; \
		echo "$(MAKE) O=build-posix-musl CC=$(MUSL_CC) UNAME_S=FreeBSD CFLAGS=\"$(POSIX_CFLAGS)\" tests"; \
		$(MAKE) O=build-posix-musl CC=$(MUSL_CC) UNAME_S=FreeBSD \
		    CFLAGS="$(POSIX_CFLAGS)" tests || exit 1; \
		$(POSIX_RUN) build-posix-musl; \
	else \
		rm -rf build-posix-musl; \
		echo "make check-posix: no $(MUSL_CC): the musl build is not tried"; \
		$(MAKE) O=build-posix UNAME_S=FreeBSD tests || exit 1; \
		$(POSIX_RUN) build-posix; \
	fi

# make mpi: the same program with the MPI back end of the team, in
# build-mpi/, copied to ./bonnie-ng-mpi.  The default build never needs
# MPI.  Only src/team-mpi.c includes MPI's headers: it alone is compiled
# with mpicc, and every other object is the plain build's (in O), the
# code mpicc would make of it (mpicc adds MPI's -I, -L and -l flags only:
# mpicc -showme); the program and tests/mpi-team are linked with mpicc.
# The whole tree compiled again with mpicc cost CI's build and make check
# about 30 s of CPU, and the package's build as much.
MPICC   ?= mpicc
MPI_DIR  = build-mpi
MPI_OBJ  = $(filter-out $(O)/obj/team-host.o,$(LIB_OBJ)) $(MPI_DIR)/obj/team-mpi.o
mpi: $(MPI_DIR)/bonnie-ng $(MPI_DIR)/tests/mpi-team
	cp $(MPI_DIR)/bonnie-ng bonnie-ng-mpi

$(MPI_DIR)/obj/team-mpi.o: src/team-mpi.c $(wildcard include/*.h) VERSION
	@mkdir -p $(MPI_DIR)/obj
	$(MPICC) $(ALL_CFLAGS) -c -o $@ src/team-mpi.c

$(MPI_DIR)/obj/libbonnie.a: $(MPI_OBJ)
	rm -f $@
	$(AR) rcs $@ $(MPI_OBJ)

$(MPI_DIR)/bonnie-ng: $(MAIN_OBJ) $(MPI_DIR)/obj/libbonnie.a
	$(MPICC) $(ALL_LDFLAGS) -o $@ $(MAIN_OBJ) $(MPI_DIR)/obj/libbonnie.a $(LIBS)

$(MPI_DIR)/tests/mpi-team: tests/mpi-team.c tests/tap.h $(MPI_DIR)/obj/libbonnie.a
	@mkdir -p $(MPI_DIR)/tests
	$(MPICC) $(ALL_CFLAGS) -Itests $(ALL_LDFLAGS) -o $@ tests/mpi-team.c \
	    $(MPI_DIR)/obj/libbonnie.a $(LIBS)

# make install: the program, the manual, the shell completions (bash,
# zsh), the documents and the record's JSON schema
# (DATADIR/bonnie-ng/schema.json).
install: $(BIN)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DATADIR)/bonnie-ng \
	    $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	cp $(BIN) $(DESTDIR)$(BINDIR)/bonnie-ng
	chmod 755 $(DESTDIR)$(BINDIR)/bonnie-ng
	cp man/bonnie-ng.1 $(DESTDIR)$(MANDIR)/man1/bonnie-ng.1
	chmod 644 $(DESTDIR)$(MANDIR)/man1/bonnie-ng.1
	# bonnie++-ng: bonnie-ng pp under the name harnesses can be given.
	ln -sf bonnie-ng $(DESTDIR)$(BINDIR)/bonnie++-ng
	ln -sf bonnie-ng.1 $(DESTDIR)$(MANDIR)/man1/bonnie++-ng.1
	for f in README.md doc/*.md; do \
		cp $$f $(DESTDIR)$(DOCDIR)/ && \
		chmod 644 $(DESTDIR)$(DOCDIR)/$${f##*/} || exit 1; \
	done
	cp doc/schema.json $(DESTDIR)$(DATADIR)/bonnie-ng/schema.json
	chmod 644 $(DESTDIR)$(DATADIR)/bonnie-ng/schema.json
	cp completions/bonnie-ng.bash $(DESTDIR)$(BASHCOMPDIR)/bonnie-ng
	chmod 644 $(DESTDIR)$(BASHCOMPDIR)/bonnie-ng
	# bash-completion loads a command's file by its name.
	ln -sf bonnie-ng $(DESTDIR)$(BASHCOMPDIR)/bonnie++-ng
	cp completions/_bonnie-ng $(DESTDIR)$(ZSHCOMPDIR)/_bonnie-ng
	chmod 644 $(DESTDIR)$(ZSHCOMPDIR)/_bonnie-ng

# make install-mpi: the MPI build (make mpi first) beside the program.
install-mpi:
	@test -x bonnie-ng-mpi || \
	    { echo "make install-mpi: no ./bonnie-ng-mpi (make mpi first)" >&2; exit 1; }
	mkdir -p $(DESTDIR)$(BINDIR)
	cp bonnie-ng-mpi $(DESTDIR)$(BINDIR)/bonnie-ng-mpi
	chmod 755 $(DESTDIR)$(BINDIR)/bonnie-ng-mpi

# make bench: bonnie-ng against fio, bonnie++ and a bare stdio loop in
# alternating pairs (bench/peers.sh); e.g. BENCHFLAGS="-d /mnt/disk -p 7".
bench: $(BIN)
	sh bench/peers.sh -b $(BIN) $(BENCHFLAGS)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/bonnie-ng $(DESTDIR)$(MANDIR)/man1/bonnie-ng.1
	rm -f $(DESTDIR)$(BINDIR)/bonnie++-ng $(DESTDIR)$(MANDIR)/man1/bonnie++-ng.1
	rm -f $(DESTDIR)$(BINDIR)/bonnie-ng-mpi
	for f in README.md doc/*.md; do rm -f $(DESTDIR)$(DOCDIR)/$${f##*/}; done
	rm -f $(DESTDIR)$(DATADIR)/bonnie-ng/schema.json
	rm -f $(DESTDIR)$(BASHCOMPDIR)/bonnie-ng $(DESTDIR)$(ZSHCOMPDIR)/_bonnie-ng
	rm -f $(DESTDIR)$(BASHCOMPDIR)/bonnie++-ng
	-rmdir $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DATADIR)/bonnie-ng 2>/dev/null

# make dist: bonnie-ng-VERSION.tar.gz (in O) from the files git tracks at
# HEAD, under bonnie-ng-VERSION/.  The tarball builds without git: the
# version comes from its VERSION file.
DIST = bonnie-ng-$(VERSION)
dist:
	@git rev-parse --git-dir >/dev/null 2>&1 || \
	    { echo "make dist: needs a git checkout" >&2; exit 1; }
	git archive --format=tar --prefix=$(DIST)/ HEAD | gzip -9n >$(O)/$(DIST).tar.gz.tmp
	mv $(O)/$(DIST).tar.gz.tmp $(O)/$(DIST).tar.gz

# With O=. the test programs sit beside the test sources in tests/: remove
# the programs, never the directory.
clean:
	rm -rf $(O)/obj $(BIN) bonnie-ng-mpi build-asan build-*
	rm -f $(TEST_BIN) $(O)/tests/libinject.so $(O)/tests/run-times

# --- Faults, fuzzing and analysis (tests/fault, tests/fuzz) -------------

# The fault-injection library the tests preload (Linux: it reads
# /proc/self/fd).  Never sanitized: it sits in front of the sanitizers.
ifeq ($(UNAME_S),Linux)
INJECT = $(O)/tests/libinject.so
endif
tests check: $(INJECT)
INJECT_SRC = tests/fault/inject.c tests/fault/inject-spec.c \
	     tests/fault/inject-other.c
$(O)/tests/libinject.so: $(INJECT_SRC) tests/fault/inject.h
	@mkdir -p $(O)/tests
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -fPIC -shared -o $@ \
	    $(INJECT_SRC) -ldl

# make fuzz: each libFuzzer harness in tests/fuzz for FUZZ_SECONDS, with the
# saved corpus in tests/fuzz/corpus/NAME; new inputs and crashes go to
# tests/fuzz/out.  Needs clang.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SAN      = address,undefined
FUZZ_NAMES    = $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
# The library under the harnesses unoptimised: clang with ASan, UBSan and
# the fuzzer's coverage took 81 s of CPU for it at -O1, 38 s at -O0
# (load 15), and 4 s of fuzzing from the saved corpus ran about as many
# inputs (csv 14075 against 15304, json 6010 against 5950, text 13093
# against 11842; cli half as many) and reached as many edges or more.
FUZZ_CFLAGS  ?= -O0 -g
# The project's own flags without warnings or sanitizers, for the tools.
TOOL_CFLAGS   = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
                -DBONNIE_NG_VERSION='"$(VERSION)"' -Iinclude -Itests

fuzz-build:
	$(MAKE) O=build-fuzz CC=$(FUZZ_CC) CFLAGS="$(FUZZ_CFLAGS)" \
	    SANITIZE=fuzzer-no-link,$(FUZZ_SAN) build-fuzz/obj/libbonnie.a
	@mkdir -p build-fuzz/fuzz
	for n in $(FUZZ_NAMES); do \
		$(FUZZ_CC) $(TOOL_CFLAGS) $(WARN) -O1 -g \
		    -fsanitize=fuzzer,$(FUZZ_SAN) -fno-sanitize-recover=all \
		    -o build-fuzz/fuzz/$$n tests/fuzz/fuzz-$$n.c \
		    build-fuzz/obj/libbonnie.a $(LIBS) || exit 1; \
	done

fuzz: fuzz-build
	for n in $(FUZZ_NAMES); do \
		mkdir -p tests/fuzz/out/$$n tests/fuzz/corpus/$$n; \
		build-fuzz/fuzz/$$n -max_total_time=$(FUZZ_SECONDS) \
		    -timeout=10 -print_final_stats=1 \
		    -artifact_prefix=tests/fuzz/out/$$n- \
		    tests/fuzz/out/$$n tests/fuzz/corpus/$$n || exit 1; \
	done

# make analyze: cppcheck and clang-tidy (configuration in .clang-tidy and
# tests/analysis/cppcheck.supp) on src/ and the test helpers, the default
# build's files; then src/team-mpi.c, with the -I and -D flags that
# $(MPICC) compiles with (Open MPI's -showme:compile, MPICH's
# -compile_info), or, without them, a line saying it is not analyzed.
ANALYZE_SRC = $(sort $(LIB_SRC) src/main.c)
MPI_FLAGS   = $(filter -I% -D%,$(shell { $(MPICC) -showme:compile || \
                $(MPICC) -compile_info; } 2>/dev/null))
CPPCHECK    = cppcheck --quiet --error-exitcode=1 --std=c11 \
              --enable=warning,portability,performance --inline-suppr \
              --suppressions-list=tests/analysis/cppcheck.supp \
              -D__linux__ -D_POSIX_C_SOURCE=200809L -Iinclude
# The static analyzer's budget: at most TIDY_NODES nodes of the exploded
# graph for each function it starts from (clang's default is 225000).  The
# analyzer is nearly all of clang-tidy's time (a file's parse and the
# other checks take 0.2 s of it).  At 25000 the tree's 120 files took 79
# s of CPU, at 100000 200 s; the path bugs it found in this tree before
# (a division by zero, two null dereferences, a null list to qsort, an
# uninitialised argument, a double free: 4a0e510, dc0241d, 4cad5a0,
# 984dff3, 01d3472, 534a1a9) it still finds at 25000, each in its file as
# it was then (at 10000 it misses one of the double free's two reports).
# A smaller budget is not only shallower: the paths it gives up on are
# others, and at 25000 it found one that 100000 did not.
# make analyze TIDY_NODES=225000 for the full depth.
TIDY_NODES ?= 25000
CLANG_TIDY  = clang-tidy --quiet --warnings-as-errors='*' \
              --extra-arg=-Xclang --extra-arg=-analyzer-config \
              --extra-arg=-Xclang --extra-arg=max-nodes=$(TIDY_NODES)
# One clang-tidy per file, so that make -j runs them side by side: each
# tidy/FILE names a file to check, never one that is made.
TIDY_FILES  = $(addprefix tidy/,$(wildcard $(ANALYZE_SRC)))
analyze: analyze-cppcheck $(TIDY_FILES) analyze-mpi
analyze-cppcheck:
	$(CPPCHECK) $(wildcard $(ANALYZE_SRC)) $(INJECT_SRC)
tidy/%:
	$(CLANG_TIDY) $* -- $(TOOL_CFLAGS)
analyze-mpi:
	$(if $(MPI_FLAGS),$(CPPCHECK) $(MPI_FLAGS) src/team-mpi.c,@echo \
	    "make analyze: no MPI headers from $(MPICC): src/team-mpi.c not analyzed")
	$(if $(MPI_FLAGS),$(CLANG_TIDY) src/team-mpi.c -- $(TOOL_CFLAGS) \
	    $(patsubst -I%,-isystem%,$(MPI_FLAGS)),@:)

# make check-tsan: the threaded seekers under ThreadSanitizer.
# Built with $(CC): clang's TSan took as long (build 40 CPU-s with gcc,
# 42 with clang; the runs 4.5 and 4.0, two pairs at load 9).  -g1 (line
# tables: the reports keep file:line) took the build from 40.6 to 37.7.
# -O0 (TSAN_CFLAGS): every load and store is instrumented, none kept in a
# register or merged away, and the runs took as long: two pairs from
# scratch at -j2, load 5-8, build 28.6 and 30.4 CPU-s at -O1, 23.8 and
# 18.9 at -O0; tests/analysis/tsan.sh 3.5 and 3.9 against 4.0 and 3.4.
TSAN_CFLAGS ?= -O0 -g1
check-tsan:
	$(MAKE) O=build-tsan SANITIZE=thread CFLAGS="$(TSAN_CFLAGS)" build-tsan/bonnie-ng \
	    $(INJECT:$(O)/%=build-tsan/%)
	sh tests/analysis/tsan.sh build-tsan/bonnie-ng

# make check-valgrind: small runs under valgrind memcheck, forked seekers
# included; any error or leak fails.
check-valgrind: $(BIN)
	sh tests/analysis/valgrind.sh $(BIN)
