# bash completion for bonnie-ng(1), its MPI build, bonnie-ng-mpi, and
# bonnie++-ng (bonnie-ng pp; a bonnie++ symlink of one's own is left to
# bonnie++'s completion, if any).
#
# The program knows its commands, their options, the values an option
# takes (from its option rows and its phase table): this script hands it
# the words typed so far with "bonnie-ng __complete -- WORD... CURRENT" and
# shows its answer.  The first line of the answer says what to offer:
# "words" (the lines after it), "files", "dirs" or "none".

_bonnie_ng()
{
	local cur prev words cword split
	if declare -F _init_completion >/dev/null 2>&1; then
		# Keep "--cache=co" as one word.
		_init_completion -n = || return
	else
		# Without bash-completion: the line up to the cursor, split at
		# blanks (so "--cache=co" stays one word).
		local line=${COMP_LINE:0:COMP_POINT}
		read -ra words <<<"$line"
		[[ $line == *[[:blank:]] ]] && words+=("")
		cword=$((${#words[@]} - 1))
		cur=${words[cword]}
	fi

	local prog=${words[0]} answer kind
	answer=$(command "$prog" __complete -- "${words[@]:1:cword}" \
	    2>/dev/null) || return
	kind=${answer%%$'\n'*}

	# bash replaces only what follows the last "=" in the current word
	# when "=" breaks words; the answer has the whole word.
	local pre=""
	if [[ $cur == *=* && $COMP_WORDBREAKS == *=* ]]; then
		pre=${cur%"${cur##*=}"}
	fi

	case $kind in
	words)
		local IFS=$'\n' w
		COMPREPLY=()
		[[ $answer == *$'\n'* ]] || return 0
		for w in ${answer#*$'\n'}; do
			COMPREPLY+=("${w#"$pre"}")
			[[ $w == *= ]] && compopt -o nospace 2>/dev/null
		done
		;;
	files|dirs)
		cur=${cur#"$pre"}
		if declare -F _filedir >/dev/null 2>&1; then
			if [[ $kind == dirs ]]; then
				_filedir -d
			else
				_filedir
			fi
		else
			local IFS=$'\n'
			if [[ $kind == dirs ]]; then
				COMPREPLY=($(compgen -d -- "$cur"))
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
		fi
		;;
	*)
		COMPREPLY=()
		;;
	esac
	return 0
}
complete -F _bonnie_ng bonnie-ng bonnie-ng-mpi bonnie++-ng
