#!/bin/sh
# Shell completion: bash loads completions/bonnie-ng.bash (or the file in
# $BONNIE_NG_BASH_COMPLETION, e.g. the installed one) with bash-completion
# and offers the candidates the program's option rows and phase table give:
# commands, options, option values, directories for -d, files for compare
# and report.  zsh's function is driven with its builtins stubbed.
. tests/lib.sh
scratch

BASHCOMP=${BONNIE_NG_BASH_COMPLETION:-completions/bonnie-ng.bash}
ZSHCOMP=${BONNIE_NG_ZSH_COMPLETION:-completions/_bonnie-ng}
case $BASHCOMP in /*) ;; *) BASHCOMP=$(pwd)/$BASHCOMP ;; esac
case $ZSHCOMP in /*) ;; *) ZSHCOMP=$(pwd)/$ZSHCOMP ;; esac

mkdir "$T/w" "$T/w/sub"
: >"$T/w/r1.json"
: >"$T/w/r2.csv"

# The answer of the program itself.
ans=$("$BONNIE" __complete -- --ca)
check "__complete answers words for --ca" \
    "$([ "$ans" = "$(printf 'words\n--cache=')" ]; echo $?)"
ans=$("$BONNIE" __complete -- -s '')
check "__complete leaves a size free" "$([ "$ans" = none ]; echo $?)"

if ! command -v bash >/dev/null 2>&1; then
	for i in $(seq 1 24); do skip "bash is not installed"; done
else
	# comp LINE: the candidates bash's completion offers with the
	# cursor at the end of LINE, one a line, sorted.  LINE is split as
	# bash splits it (at blanks, and "=" as a word of its own).
	cat >"$T/comp.bash" <<'EOS'
[ -z "$NO_BASH_COMPLETION" ] &&
    [ -f /usr/share/bash-completion/bash_completion ] &&
    . /usr/share/bash-completion/bash_completion
. "$BASHCOMP"
# As in an interactive shell (a script has no COMP_WORDBREAKS).
COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'
comp() {
	local line=$1 spl
	spl=${line//=/ = }
	read -ra COMP_WORDS <<<"$spl"
	[[ $line == *' ' || $line == *= ]] && COMP_WORDS+=("")
	COMP_WORDS[0]=$BONNIE
	COMP_LINE="$BONNIE ${line#* }"
	COMP_POINT=${#COMP_LINE}
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_bonnie_ng bonnie-ng "${COMP_WORDS[COMP_CWORD]}" \
	    "${COMP_WORDS[COMP_CWORD-1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort
}
cd "$T/w"
comp "$1"
EOS
	comp() {
		NO_BASH_COMPLETION=${NO_BASH_COMPLETION:-} \
		    BASHCOMP=$BASHCOMP BONNIE=$BONNIE T=$T \
		    bash "$T/comp.bash" "$1" 2>"$T/comp.err" | tr '\n' ' ' |
		    sed 's/ $//'
	}
	expect() {
		got=$(comp "$1")
		[ "$got" = "$2" ] || diag "'$1': got '$got', want '$2'"
		check "bash: '$1<TAB>' offers '$2'" "$([ "$got" = "$2" ]; echo $?)"
	}
	if [ -f /usr/share/bash-completion/bash_completion ]; then
		diag "with bash-completion"
	else
		diag "bash-completion is not installed: the script's fallback"
	fi
	expect "bonnie-ng --ca" "--cache="
	expect "bonnie-ng --cache=" "cold global keep"
	expect "bonnie-ng --cache=k" "keep"
	expect "bonnie-ng -p wr" "write"
	expect "bonnie-ng -p write,re" "write,read write,rewrite"
	expect "bonnie-ng -o " "csv json text"
	expect "bonnie-ng --seekers=" "fork thread"
	expect "bonnie-ng -s " ""
	expect "bonnie-ng " "compare history pp report sweep vm"
	expect "bonnie-ng compare " "r1.json r2.csv sub"
	expect "bonnie-ng report r" "r1.json r2.csv"
	expect "bonnie-ng -d " "sub"
	expect "bonnie-ng --json=r" "r1.json r2.csv"
	expect "bonnie-ng sweep --js" "--json="
	# compare's formats, from the program's own list (its refusal of an
	# unknown one), so that a new format changes both sides.
	formats=$("$BONNIE" compare -o nosuch a b 2>&1 |
	    sed -n 's/.*(use \(.*\))$/\1/p' | sed 's/ or /, /' |
	    tr -d ',' | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
	[ "$(echo "$formats" | wc -w)" -ge 4 ] ||
	    diag "the format list from compare -o nosuch: '$formats'"
	expect "bonnie-ng compare -o " "$formats"
	# A phase already in the list is not offered again.
	# The phases, from the program's own list (its refusal of an
	# unknown name), so that a new phase changes both sides.
	others=$("$BONNIE" -p nosuch 2>&1 |
	    sed -n 's/.*unknown phase .* (\(.*\))$/\1/p' | tr -d ' ' |
	    tr ',' '\n' | grep -vx -e all -e write -e read |
	    sed 's/^/write,read,/' | sort | tr '\n' ' ' | sed 's/ $//')
	[ "$(echo "$others" | wc -w)" -ge 11 ] ||
	    diag "the phase list from -p nosuch: '$others'"
	expect "bonnie-ng -p write,read," "$others"
	expect "bonnie-ng -p write,read,rew" "write,read,rewrite"
	expect "bonnie-ng -p read,write,re" "read,write,rewrite"
	# bonnie++-ng (the package's symlink) completes as bonnie-ng pp.
	ln -s "$BONNIE" "$T/bonnie++-ng"
	keep=$BONNIE
	BONNIE=$T/bonnie++-ng
	expect "bonnie++-ng --cs" "--csv-format="
	expect "bonnie++-ng -s 1 --csv-format=" "1.97 1.98"
	BONNIE=$keep
	bash -c '. "$1"; complete -p bonnie++-ng && ! complete -p bonnie++' \
	    sh "$BASHCOMP" >/dev/null 2>&1
	check "bash: the script completes bonnie++-ng, not bonnie++" $?
	# The script's own way when bash-completion is not loaded.
	NO_BASH_COMPLETION=1
	diag "without bash-completion (the script's fallback)"
	expect "bonnie-ng --cache=" "cold global keep"
	expect "bonnie-ng -p write,re" "write,read write,rewrite"
	expect "bonnie-ng compare " "r1.json r2.csv sub"
	NO_BASH_COMPLETION=
fi

if ! command -v zsh >/dev/null 2>&1; then
	for i in 1 2 3 4 5; do skip "zsh is not installed"; done
else
	# zsh's completion builtins only work inside a completion widget:
	# stub them to print what they are given.
	cat >"$T/comp.zsh" <<'EOS'
compadd() {
	while [[ $1 == -* ]]; do
		case $1 in
		-S) shift 2 ;;
		--) shift; break ;;
		*) shift ;;
		esac
	done
	print -rl -- "$@"
}
_files() { print -r -- "_files${1:+ $1}" }
compset() { return 1 }
. "$ZSHCOMP"
cd "$T/w"
words=("$BONNIE" ${(s: :)1})
[[ $1 == *' ' ]] && words+=("")
CURRENT=${#words}
PREFIX=${words[-1]}
_bonnie-ng | sort | tr '\n' ' ' | sed 's/ $//'
EOS
	zexpect() {
		got=$(ZSHCOMP=$ZSHCOMP BONNIE=$BONNIE T=$T zsh -f "$T/comp.zsh" "$1" 2>/dev/null)
		[ "$got" = "$2" ] || diag "zsh '$1': got '$got', want '$2'"
		check "zsh: '$1<TAB>' offers '$2'" "$([ "$got" = "$2" ]; echo $?)"
	}
	zexpect "--ca" "--cache="
	zexpect "-p wr" "write"
	zexpect "compare " "_files"
	zexpect "-d " "_files -/"
	grep -q '^#compdef .*bonnie++-ng' "$ZSHCOMP"
	check "zsh: the function is for bonnie++-ng too" $?
fi

done_testing
