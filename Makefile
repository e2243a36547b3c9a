# bonnie-ng: build, test, install.
#
# Objects go to $(O)/obj and the program to $(O)/bonnie-ng, so that several
# builds (plain, sanitized, a developer's worktree) never share objects.
# The user's CFLAGS stay separate from the flags the project needs.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
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
              -DBONNIE_NG_VERSION='"$(VERSION)"' -Iinclude $(WARN) $(SANFLAGS) $(CFLAGS)
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
LIB_SRC  = $(filter-out src/main.c $(wildcard src/*-linux.c src/*-posix.c), \
             $(wildcard src/*.c)) $(wildcard src/*-$(PLAT).c)
LIB_OBJ  = $(patsubst src/%.c,$(O)/obj/%.o,$(LIB_SRC))
MAIN_OBJ = $(O)/obj/main.o
TEST_SRC = $(wildcard tests/t-*.c)
TEST_BIN = $(patsubst tests/%.c,$(O)/tests/%,$(TEST_SRC))
BIN      = $(O)/bonnie-ng

.PHONY: all check check-plain check-asan install uninstall clean bench fuzz

all: $(BIN)

$(BIN): $(MAIN_OBJ) $(O)/obj/libbonnie.a
	$(CC) $(ALL_LDFLAGS) -o $@ $(MAIN_OBJ) $(O)/obj/libbonnie.a $(LIBS)

$(O)/obj/libbonnie.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

$(O)/obj/%.o: src/%.c $(wildcard include/*.h) VERSION
	@mkdir -p $(O)/obj
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/tests/%: tests/%.c tests/tap.h $(O)/obj/libbonnie.a
	@mkdir -p $(O)/tests
	$(CC) $(ALL_CFLAGS) -Itests $(ALL_LDFLAGS) -o $@ $< $(O)/obj/libbonnie.a $(LIBS)

tests: $(BIN) $(TEST_BIN)

# make check: the whole suite on a normal build, then again on a build with
# AddressSanitizer and UndefinedBehaviorSanitizer (in build-asan/).
check: check-plain check-asan

check-plain: $(BIN) $(TEST_BIN)
	sh tests/run.sh $(O)

check-asan:
	$(MAKE) O=build-asan SANITIZE=address,undefined CFLAGS="-O1 -g" tests
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    BONNIE_NG_SANITIZED=1 sh tests/run.sh build-asan

install: $(BIN)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	cp $(BIN) $(DESTDIR)$(BINDIR)/bonnie-ng
	chmod 755 $(DESTDIR)$(BINDIR)/bonnie-ng
	cp man/bonnie-ng.1 $(DESTDIR)$(MANDIR)/man1/bonnie-ng.1
	chmod 644 $(DESTDIR)$(MANDIR)/man1/bonnie-ng.1

# make bench: bonnie-ng against fio, bonnie++ and a bare stdio loop in
# alternating pairs (bench/peers.sh); e.g. BENCHFLAGS="-d /mnt/disk -p 7".
bench: $(BIN)
	sh bench/peers.sh -b $(BIN) $(BENCHFLAGS)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/bonnie-ng $(DESTDIR)$(MANDIR)/man1/bonnie-ng.1

clean:
	rm -rf $(O)/obj $(O)/tests $(BIN) build-asan build-*
