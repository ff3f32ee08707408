# bash completion for imgaudit.                                  -*- shell-script -*-
# Installed as share/bash-completion/completions/imgaudit; or source it from ~/.bashrc.
# Options come from `imgaudit --help` and rule ids from `imgaudit rules`, both asked
# of the imgaudit being completed, so they always match its version.
# Needs nothing from the bash-completion package.

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
    --format) compgen -W 'text json sarif' -- "$cur" ;;
    --fail-on) compgen -W 'error warning info never' -- "$cur" ;;
    --platform) compgen -W 'linux/amd64 linux/arm64 linux/arm/v7 linux/arm/v6 linux/386 linux/ppc64le linux/s390x linux/riscv64' -- "$cur" ;;
    --ignore)
      # ID, or ID:PATHGLOB: only the id is completed.
      [[ $cur == *:* ]] || compgen -W "$(_imgaudit_rule_ids)" -- "$cur" ;;
    -o | --output | --config | --dockerfile | --ca-cert | --images-from) _imgaudit_files "$cur" ;;
    --cache-dir) _imgaudit_dirs "$cur" ;;
    --cache) compgen -W 'redis:// rediss://' -- "$cur" ;;
    --cache-ttl) compgen -W '30d 7d 12h' -- "$cur" ;;
    *) ;;  # a number, a user name or a host: nothing to offer
  esac
}

# Whether option $1 takes a value in the next word.
_imgaudit_takes_value() {
  case $1 in
    --platform | --format | -o | --output | --fail-on | -j | --jobs | --ignore | --config | --dockerfile | \
      --username | --ca-cert | --insecure-registry | --cache-dir | --cache | --cache-ttl | --timeout | --retry-wait | --images-from | \
      --registry | --include | --exclude | --registry-page-size | --shard) return 0 ;;
  esac
  return 1
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

  # The subcommand and the positional arguments given so far.
  local command="" i word
  local -a positionals=()
  for ((i = 1; i < ${#words[@]}; i++)); do
    word=${words[i]}
    if [[ $word == -* ]]; then
      [[ $word != *=* ]] && _imgaudit_takes_value "$word" && ((i++))
    elif [[ -z $command && ${#positionals[@]} -eq 0 && $word =~ ^(rules|explain|compare)$ ]]; then
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
    candidates=$(compgen -W "$(_imgaudit_options)" -- "$cur")
  else
    case $command in
      rules) candidates="" ;;
      explain) ((${#positionals[@]} == 0)) && candidates=$(compgen -W "$(_imgaudit_rule_ids)" -- "$cur") ;;
      compare) ((${#positionals[@]} < 2)) && candidates=$(_imgaudit_images "$cur") ;;
      *)
        if ((${#positionals[@]} == 0)); then
          candidates=$(compgen -W 'rules explain compare' -- "$cur")
          candidates+=${candidates:+$'\n'}$(_imgaudit_images "$cur")
        fi
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
