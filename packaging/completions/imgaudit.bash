# bash completion for imgaudit.                                  -*- shell-script -*-
# Installed as share/bash-completion/completions/imgaudit; or source it from ~/.bashrc.
# Options come from `imgaudit --help` and rule ids from `imgaudit rules`, both asked
# of the imgaudit being completed, so they always match its version.
# Needs nothing from the bash-completion package.

# imgaudit's subcommands, and those of `imgaudit cache`.
_imgaudit_commands='rules explain compare version config help completion cache'
_imgaudit_cache_commands='info clean'

# The imgaudit on the command line, or the one on PATH.
_imgaudit_program() {
  local program=${COMP_WORDS[0]}
  [[ $program == "~/"* ]] && program=$HOME/${program#"~/"}
  command -v "$program" >/dev/null 2>&1 || program=imgaudit
  printf '%s\n' "$program"
}

_imgaudit_options() {
  "$(_imgaudit_program)" --help 2>/dev/null |
    sed -n 's/^ \{1,\}\(-[^ ]*\).*/\1/p' | tr ',' '\n'
}

# The options of subcommand $@ (compare, cache info), one a line: its own, as its --help
# lists them, and the audit's that it reads, which its help's last line names.
_imgaudit_command_options() {
  "$(_imgaudit_program)" "$@" --help 2>/dev/null |
    sed -n -e 's/^ \{1,\}\(-[^ ]*\).*/\1/p' \
      -e "s/^The audit's options it reads: \(.*\) (imgaudit --help)$/\1/p" | tr ', ' '\n\n' | sort -u
}

# The options that take a value, one a line: those --help shows with a type
# ("--format TEXT:{...}", "-j,--jobs UINT"), --config, which it shows bare, and
# --older-than, of `imgaudit cache clean`.
_imgaudit_valued_options() {
  "$(_imgaudit_program)" --help 2>/dev/null |
    sed -n 's/^ \{1,\}\(-[^ ]*\) \{1,\}\(TEXT\|UINT\|INT\).*/\1/p' | tr ',' '\n'
  printf '%s\n' --config --older-than
}

# The values --help lists for option $1 ("--format TEXT:{text,json,...}"), one a line.
_imgaudit_choices() {
  "$(_imgaudit_program)" --help 2>/dev/null |
    sed -n "s/^ \{1,\}\(-[^ ]*,\)\{0,1\}$1 [A-Z]*:{\([^}]*\)}.*/\2/p" | tr ',' '\n'
}

_imgaudit_rule_ids() {
  "$(_imgaudit_program)" rules 2>/dev/null | while read -r id _; do
    [[ -n $id ]] && printf '%s\n' "$id"
  done
}

# Candidates for an IMAGE: the transport prefixes, then files and folders, also
# after a prefix (oci:PATH, docker-archive:PATH, oci-archive:PATH, rootfs:PATH).
_imgaudit_images() {
  local cur=$1 prefix
  for prefix in oci: docker-archive: oci-archive: rootfs:; do
    if [[ $cur == "$prefix"* ]]; then
      compgen -f -- "${cur#"$prefix"}" | while IFS= read -r path; do
        [[ -d $path ]] && path+=/
        printf '%s\n' "$prefix$path"
      done
      return
    fi
  done
  compgen -W 'oci: docker-archive: oci-archive: rootfs:' -- "$cur"
  compgen -f -- "$cur" | while IFS= read -r path; do
    [[ -d $path ]] && path+=/
    printf '%s\n' "$path"
  done
}

_imgaudit_files() {
  compgen -f -- "$1" | while IFS= read -r path; do
    [[ -d $path ]] && path+=/
    printf '%s\n' "$path"
  done
}

_imgaudit_dirs() {
  compgen -d -- "$1" | while IFS= read -r path; do printf '%s/\n' "$path"; done
}

# Candidates for the value of option $1, the word being $2.
_imgaudit_option_values() {
  local option=$1 cur=$2
  case $option in
    --format | --fail-on | --min-severity | --color) compgen -W "$(_imgaudit_choices "$option")" -- "$cur" ;;
    --image-src) compgen -W 'docker podman containerd remote docker,podman,containerd,remote' -- "$cur" ;;
    --docker-host) compgen -W 'unix:// tcp://' -- "$cur" ;;
    --containerd-namespace) compgen -W 'default k8s.io moby' -- "$cur" ;;
    --platform) compgen -W 'all linux/amd64 linux/arm64 linux/arm/v7 linux/arm/v6 linux/386 linux/ppc64le linux/s390x linux/riscv64' -- "$cur" ;;
    --ignore)
      # ID, or ID:PATHGLOB: only the id is completed.
      [[ $cur == *:* ]] || compgen -W "$(_imgaudit_rule_ids)" -- "$cur" ;;
    -o | --output | --config | --dockerfile | --baseline | --ca-cert | --images-from | --cache-key-file | --containerd-address) _imgaudit_files "$cur" ;;
    --cache-dir) _imgaudit_dirs "$cur" ;;
    --cache) compgen -W 'redis:// rediss://' -- "$cur" ;;
    --cache-ttl | --older-than) compgen -W '30d 7d 12h' -- "$cur" ;;
    *) ;;  # a number, a user name or a host: nothing to offer
  esac
}

# Whether option $1 takes a value in the next word; $_imgaudit_valued lists them (set by _imgaudit).
_imgaudit_takes_value() {
  [[ $'\n'$_imgaudit_valued$'\n' == *$'\n'"$1"$'\n'* ]]
}

_imgaudit() {
  # Split the line on blanks only: bash also splits words on ':' and '=', which
  # would cut oci:PATH and --format=json apart.
  local line=${COMP_LINE:0:COMP_POINT} cur=""
  local -a words
  read -ra words <<<"$line"
  if [[ $line =~ [[:space:]]$ ]]; then
    cur=""
  elif ((${#words[@]} > 0)); then
    cur=${words[${#words[@]} - 1]}
    unset 'words[${#words[@]}-1]'
  fi
  local prev=""
  ((${#words[@]} > 1)) && prev=${words[${#words[@]} - 1]}

  local _imgaudit_valued
  _imgaudit_valued=$(_imgaudit_valued_options)

  # The subcommand and the positional arguments given so far.
  local command="" i word
  local -a positionals=()
  for ((i = 1; i < ${#words[@]}; i++)); do
    word=${words[i]}
    if [[ $word == -* ]]; then
      [[ $word != *=* ]] && _imgaudit_takes_value "$word" && ((i++))
    elif [[ -z $command && ${#positionals[@]} -eq 0 && " $_imgaudit_commands " == *" $word "* ]]; then
      command=$word
    else
      positionals+=("$word")
    fi
  done

  local candidates=""
  if [[ $cur == --*=* ]]; then
    candidates=$(_imgaudit_option_values "${cur%%=*}" "${cur#*=}" | sed "s|^|${cur%%=*}=|")
  elif [[ -n $prev ]] && _imgaudit_takes_value "$prev"; then
    candidates=$(_imgaudit_option_values "$prev" "$cur")
  elif [[ $cur == -* ]]; then
    # A subcommand takes its own and the audit's options it reads (imgaudit refuses the others);
    # config prints them all.
    local options
    case $command in
      "") options=$(_imgaudit_options) ;;
      config) options=$(_imgaudit_options; _imgaudit_command_options config) ;;
      cache)
        if [[ " $_imgaudit_cache_commands " == *" ${positionals[0]-} "* && -n ${positionals[0]-} ]]; then
          options=$(_imgaudit_command_options cache "${positionals[0]}")
        else
          options=$(_imgaudit_command_options cache)
        fi
        ;;
      *) options=$(_imgaudit_command_options "$command") ;;
    esac
    candidates=$(compgen -W "$options" -- "$cur")
  else
    case $command in
      rules | version | config) candidates="" ;;
      explain) ((${#positionals[@]} == 0)) && candidates=$(compgen -W "$(_imgaudit_rule_ids)" -- "$cur") ;;
      help)
        # help SUBCOMMAND, help cache info|clean
        if ((${#positionals[@]} == 0)); then
          candidates=$(compgen -W "$_imgaudit_commands" -- "$cur")
        elif ((${#positionals[@]} == 1)) && [[ ${positionals[0]} == cache ]]; then
          candidates=$(compgen -W "$_imgaudit_cache_commands" -- "$cur")
        fi
        ;;
      completion) ((${#positionals[@]} == 0)) && candidates=$(compgen -W 'bash zsh' -- "$cur") ;;
      cache) ((${#positionals[@]} == 0)) && candidates=$(compgen -W "$_imgaudit_cache_commands" -- "$cur") ;;
      compare) ((${#positionals[@]} < 2)) && candidates=$(_imgaudit_images "$cur") ;;
      *)
        # A subcommand first, or images: as many as are given.
        ((${#positionals[@]} == 0)) && candidates=$(compgen -W "$_imgaudit_commands" -- "$cur")
        candidates+=${candidates:+$'\n'}$(_imgaudit_images "$cur")
        ;;
    esac
  fi

  COMPREPLY=()
  local candidate
  while IFS= read -r candidate; do
    [[ -n $candidate ]] && COMPREPLY+=("$candidate")
  done <<<"$candidates"

  # Readline replaces only the text after the word's last COMP_WORDBREAKS
  # character (':' and '=' by default): strip what comes before it.
  local breaks=${COMP_WORDBREAKS//[\"\' $'\t\n']/}
  if [[ -n $breaks && -n $cur ]]; then
    local strip=${cur%"${cur##*[$breaks]}"}
    for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=${COMPREPLY[i]#"$strip"}; done
  fi

  # No space after a prefix (oci:), a folder (dir/) or an option taking '=' values.
  if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *[:/=] ]]; then
    compopt -o nospace 2>/dev/null
  fi
  return 0
}

complete -F _imgaudit imgaudit
