/**
 * The scripts `pla completion bash|zsh|fish` prints. Each asks `pla __complete`
 * for the candidates of the word under the cursor (src/completion/complete.ts) and
 * completes file names when it answers `:files`.
 */
import type { Shell } from './shells.js';

export { SHELLS, type Shell } from './shells.js';

const BASH = `# pla completion for bash. Install: pla completion bash > ~/.local/share/bash-completion/completions/pla
# (or add \`source <(pla completion bash)\` to ~/.bashrc)
_pla_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local IFS=$'\\n'
  local -a out
  out=($(pla __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  if [[ "\${out[0]}" == ":files" ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
  else
    COMPREPLY=("\${out[@]}")
  fi
}
complete -F _pla_complete pla
`;

const ZSH = `#compdef pla
# pla completion for zsh. Install: pla completion zsh > "\${fpath[1]}/_pla" (then restart zsh)
# (or add \`source <(pla completion zsh)\` to ~/.zshrc after compinit)
_pla() {
  local -a out
  out=(\${(f)"$(pla __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)"})
  if [[ "\${out[1]}" == ":files" ]]; then
    _files
  else
    compadd -- "\${out[@]}"
  fi
}
if [[ "\${funcstack[1]}" == "_pla" ]]; then _pla "$@"; else compdef _pla pla; fi
`;

const FISH = `# pla completion for fish. Install: pla completion fish > ~/.config/fish/completions/pla.fish
function __pla_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l out (pla __complete $words[2..-1] 2>/dev/null)
    if test "$out[1]" = ":files"
        __fish_complete_path (commandline -ct)
    else
        printf '%s\\n' $out
    end
end
complete -c pla -f -a '(__pla_complete)'
`;

/** The completion script for `shell`. */
export function completionScript(shell: Shell): string {
  return { bash: BASH, zsh: ZSH, fish: FISH }[shell];
}
