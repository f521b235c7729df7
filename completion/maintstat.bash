# bash completion for maintstat: commands, each command's options (read
# from its --help, so they cannot drift), files and directories for the
# options that take them, and the entry names of the MAINTAINERS file the
# command line points at (--tree, --repo/--rev, a TREE argument, or the
# enclosing git work tree).

# The MAINTAINERS text of the tree named on the command line.
_maintstat_maintainers()
{
	local tree= repo= rev=HEAD i w
	for ((i = 2; i < cword; i++)); do
		w=${words[i]}
		case $w in
		--tree) tree=${words[i + 1]} ;;
		--tree=*) tree=${w#--tree=} ;;
		--repo) repo=${words[i + 1]} ;;
		--repo=*) repo=${w#--repo=} ;;
		--rev) rev=${words[i + 1]} ;;
		--rev=*) rev=${w#--rev=} ;;
		-*) ;;
		*) [[ -z $tree && -f $w/MAINTAINERS ]] && tree=$w ;;
		esac
	done
	tree=${tree/#\~/$HOME}
	repo=${repo/#\~/$HOME}
	if [[ -n $repo ]]; then
		git -C "$repo" show "$rev:MAINTAINERS" 2>/dev/null
	elif [[ -n $tree ]]; then
		cat -- "$tree/MAINTAINERS" 2>/dev/null
	elif [[ -f MAINTAINERS ]]; then
		cat MAINTAINERS
	else
		tree=$(git rev-parse --show-toplevel 2>/dev/null) &&
			cat -- "$tree/MAINTAINERS" 2>/dev/null
	fi
}

# Entry names: a line that is not a field, followed by a field line.
_maintstat_entries()
{
	_maintstat_maintainers | awk '
		/^[A-Z]:[ \t]/ { if (prev != "") print prev; prev = ""; next }
		{ prev = $0 }'
}

_maintstat()
{
	local cur prev words cword cmd
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	words=("${COMP_WORDS[@]}")
	cword=$COMP_CWORD
	local prog=${COMP_WORDS[0]}

	if ((cword == 1)); then
		COMPREPLY=($(compgen -W "$("$prog" help 2>/dev/null |
			awk '/^  [a-z]+  /{print $1}') help --help --version" \
			-- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}
	if [[ $cmd == help ]]; then
		((cword == 2)) && COMPREPLY=($(compgen -W "$("$prog" help \
			2>/dev/null | awk '/^  [a-z]+  /{print $1}')" -- "$cur"))
		return
	fi
	if ((cword == 2)); then
		case $cmd in
		mail) COMPREPLY=($(compgen -W "stats show" -- "$cur")); return ;;
		store) COMPREPLY=($(compgen -W "log info list prune" -- "$cur"))
			return ;;
		esac
	fi
	case $prev in
	--by)
		COMPREPLY=($(compgen -W "month quarter year release" -- "$cur"))
		return ;;
	--dialect)
		COMPREPLY=($(compgen -W "kernel qemu xen" -- "$cur"))
		return ;;
	--repo | --tree | --dest | --output-dir)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--maintainers | --db | --aliases | --keep | --archive | --employers | --output | -o)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		local sub=
		[[ $cmd == mail || $cmd == store ]] && sub=${COMP_WORDS[2]}
		# report takes review's options too but --by, --release-tags,
		# --set-aside and --json (its --help says so)
		local helps=$cmd not=
		[[ $cmd == report ]] && helps="report review" &&
			not="--by|--release-tags|--set-aside|--json"
		[[ $cmd == pending || $cmd == people ]] &&
			helps="$cmd review" &&
			not="--by|--release-tags|--set-aside"
		COMPREPLY=($(compgen -W "$(for c in $helps; do
			"$prog" $c $sub --help 2>/dev/null; done |
			sed -n 's/^ \{2,6\}\(-[a-zA-Z], \)\{0,1\}\(--[a-z0-9-]*\).*/\2/p' |
			grep -Ev "^($not)\$" | sort -u)" -- "$cur"))
		return
	fi
	case $cmd in
	activity | areas | recruit | urgent | retire | review | report | pending | identities | link)
		# entry names, which hold spaces: one per line, quoted
		local IFS=$'\n' e want=${cur#[\'\"]}
		for e in $(_maintstat_entries); do
			[[ $e == "$want"* ]] && COMPREPLY+=("$(printf '%q' "$e")")
		done
		;;
	*)
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
}
complete -F _maintstat maintstat
