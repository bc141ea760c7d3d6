#!/usr/bin/env node
// Shell completion scripts for bash, zsh and fish, generated from the command manifest, so they
// never drift from the commands: one generator and one command (`svc completion SHELL`) for the
// three shells, with flag values everywhere.
//
//   node shell/completions.js bash > ~/.local/share/bash-completion/completions/svc
//   node shell/completions.js zsh > ~/.zfunc/_svc      # a directory on $fpath
//   node shell/completions.js fish > ~/.config/fish/completions/svc.fish
//
// Plain JavaScript with no dependencies: it runs on whatever `node` the shell has (even one too old
// for svc itself), from a clone after `npm run build` or from the installed package.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * Values that cannot be oclif `options` because the command also accepts patterns (`charge.*`),
 * comma-separated lists, or any letter case (`svc api get …`); completion still offers them.
 */
const VALUE_HINTS = [
  { command: 'webhooks:events', flag: 'type', from: 'eventTypes', extra: ['charge.*', 'withdrawal.*'] },
  { command: 'webhooks:listen', flag: 'events', from: 'eventTypes', extra: ['charge.*', 'withdrawal.*'] },
  { command: 'api', arg: true, from: 'methods', extra: [] },
  // Its argument is checked against the 14 types, not declared as options (the error lists them).
  { command: 'trigger', arg: true, from: 'eventTypes', extra: [] },
]

const WORD = /^[\w.:*@/-]+$/

/**
 * The shape both generators read: commands (id with `:`), their flags and args as in the oclif
 * manifest (or as the command classes declare them), and topic descriptions.
 * @param {{bin: string, commands: Array<{id: string, summary?: string, description?: string, hidden?: boolean, aliases?: string[], flags?: object, args?: object}>, topics?: Record<string, string>, eventTypes?: string[]}} input
 */
export function completionModel(input) {
  const commands = new Map()
  // By id: the manifest lists commands in the order the file system gave them, which differs
  // between two builds of the same sources; the script must not.
  const byId = [...input.commands].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  for (const c of byId) {
    for (const id of [c.id, ...(c.aliases ?? [])]) {
      const flags = Object.entries(c.flags ?? {})
        .filter(([, f]) => !f.hidden)
        .map(([name, f]) => ({
          name,
          char: f.char,
          takesValue: f.type === 'option',
          allowNo: Boolean(f.allowNo),
          options: f.options?.length ? [...f.options] : undefined,
          summary: firstLine(f.summary ?? f.description),
        }))
      const hinted = (hint) => (hint.command === id && input[hint.from]?.length ? [...input[hint.from], ...hint.extra] : undefined)
      for (const hint of VALUE_HINTS.filter((h) => h.flag)) {
        const flag = flags.find((f) => f.name === hint.flag)
        if (flag && !flag.options) flag.options = hinted(hint)
      }
      const firstArg = Object.values(c.args ?? {})[0]
      const argOptions =
        firstArg?.options ??
        VALUE_HINTS.filter((h) => h.arg)
          .map(hinted)
          .find(Boolean) ??
        []
      commands.set(id, { id, hidden: Boolean(c.hidden), summary: firstLine(c.summary ?? c.description), flags, argOptions })
    }
  }
  const topics = new Map()
  for (const id of commands.keys()) {
    const parts = id.split(':')
    for (let i = 1; i < parts.length; i++) {
      const name = parts.slice(0, i).join(':')
      if (!topics.has(name)) topics.set(name, firstLine(input.topics?.[name]) ?? '')
    }
  }
  /** Visible words that may follow a path: sub-topics and commands one level down. */
  const children = (path) => {
    const depth = path ? path.split(':').length : 0
    const seen = new Map()
    for (const name of [...topics.keys(), ...commands.keys()]) {
      const parts = name.split(':')
      if (parts.length !== depth + 1 || (path && !name.startsWith(`${path}:`))) continue
      const command = commands.get(name)
      const hasVisible = [...commands.values()].some((c) => !c.hidden && (c.id === name || c.id.startsWith(`${name}:`)))
      if (!hasVisible) continue
      seen.set(parts.at(-1), command && !command.hidden ? command.summary : topics.get(name) || command?.summary || '')
    }
    return [...seen].sort(([a], [b]) => a.localeCompare(b)).map(([word, summary]) => ({ word, summary }))
  }
  const paths = ['', ...topics.keys(), ...commands.keys()].filter((p, i, all) => all.indexOf(p) === i)
  return { bin: input.bin, commands: [...commands.values()], paths, children }
}

function firstLine(text) {
  if (text === undefined || text === null) return undefined
  return String(text).replaceAll('<%= config.bin %>', 'svc').split('\n')[0].trim()
}

const safeWords = (words) => words.filter((w) => WORD.test(w))
const flagWords = (f) => [`--${f.name}`, ...(f.allowNo ? [`--no-${f.name}`] : []), ...(f.char ? [`-${f.char}`] : [])]

export function bashCompletion(model) {
  const fn = `_${model.bin.replaceAll(/\W/g, '_')}_complete`
  const cases = (rows) => rows.map(([key, body]) => `    ${key}) ${body} ;;`).join('\n')
  const known = safeWords(model.paths.filter(Boolean))
  const childRows = model.paths
    .map((p) => [p, safeWords(model.children(p).map((c) => c.word))])
    .filter(([, words]) => words.length)
    .map(([p, words]) => [p === '' ? "''" : p, `echo '${words.join(' ')}'`])
  const flagRows = model.commands.map((c) => [c.id, `echo '${safeWords(c.flags.flatMap(flagWords)).join(' ')}'`])
  const valueFlagRows = model.commands.map((c) => [c.id, `echo ' ${safeWords(c.flags.filter((f) => f.takesValue).flatMap(flagWords)).join(' ')} '`])
  const valueRows = model.commands.flatMap((c) =>
    c.flags
      .filter((f) => f.takesValue && f.options)
      .map((f) => [
        safeWords(flagWords(f))
          .map((w) => `'${c.id} ${w}'`)
          .join('|'),
        `echo '${safeWords(f.options).join(' ')}'`,
      ]),
  )
  const argRows = model.commands.filter((c) => c.argOptions.length).map((c) => [c.id, `echo '${safeWords(c.argOptions).join(' ')}'`])
  return `# bash completion for ${model.bin}: commands, flags and the values of flags that have a fixed set.
# Generated from the command manifest by svc-cli's shell/completions.js; do not edit.
# Install: save as ~/.local/share/bash-completion/completions/${model.bin}, or source it from ~/.bashrc.

${fn}_known() {
  case "$1" in
    ${known.join('|')}) return 0 ;;
  esac
  return 1
}
${fn}_children() {
  case "$1" in
${cases(childRows)}
  esac
}
${fn}_flags() {
  case "$1" in
${cases(flagRows)}
  esac
}
${fn}_value_flags() {
  case "$1" in
${cases(valueFlagRows)}
  esac
}
${fn}_values() {
  case "$1 $2" in
${cases(valueRows)}
  esac
}
${fn}_arg_values() {
  case "$1" in
${cases(argRows)}
  esac
}

${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" flag="" path="" word next i
  COMPREPLY=()
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  # The command: the leading words that name a topic or a command.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    next="\${path:+$path:}$word"
    if ${fn}_known "$next"; then path="$next"; else break; fi
  done
  # A flag's value: "--flag VALUE", or "--flag=VALUE", which bash splits at "=" into three words.
  if [[ "$cur" == "=" ]]; then
    flag="$prev"; cur=""
  elif [[ "$prev" == "=" ]] && (( COMP_CWORD >= 2 )); then
    flag="\${COMP_WORDS[COMP_CWORD-2]}"
  elif [[ "$prev" == -* && "$(${fn}_value_flags "$path")" == *" $prev "* ]]; then
    flag="$prev"
  fi
  if [[ -n "$flag" ]]; then
    local values head=""
    values="$(${fn}_values "$path" "$flag")"
    if [[ -z "$values" ]]; then
      compopt -o default 2>/dev/null
      return 0
    fi
    # Comma-separated lists: complete the item after the last comma.
    if [[ "$cur" == *,* ]]; then head="\${cur%,*},"; cur="\${cur##*,}"; fi
    COMPREPLY=($(compgen -P "$head" -W "$values" -- "$cur"))
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(${fn}_flags "$path")" -- "$cur"))
    return 0
  fi
  # Right after the command words: sub-commands, or the values of a first argument with a fixed set.
  if (( i == COMP_CWORD )); then
    local words
    words="$(${fn}_children "$path") $(${fn}_arg_values "$path")"
    if [[ -n "\${words// /}" ]]; then
      COMPREPLY=($(compgen -W "$words" -- "$cur"))
      return 0
    fi
  fi
  compopt -o default 2>/dev/null
  return 0
}
complete -F ${fn} ${model.bin}
`
}

const fishQuote = (s) =>
  `'${String(s ?? '')
    .replaceAll('\\', '\\\\')
    .replaceAll("'", "\\'")}'`

export function fishCompletion(model) {
  const bin = model.bin
  const lines = [
    `# fish completion for ${bin}: commands, flags and the values of flags that have a fixed set.`,
    "# Generated from the command manifest by svc-cli's shell/completions.js; do not edit.",
    '',
    `function __${bin}_path --description 'The topic or command named by the words typed so far'`,
    `    set -l known ${safeWords(model.paths.filter(Boolean)).join(' ')}`,
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    set -l path',
    '    for word in $words',
    '        set -l next (string join : -- $path $word)',
    '        if contains -- $next $known',
    '            set path $next',
    '        else',
    '            break',
    '        end',
    '    end',
    '    string join : -- $path',
    'end',
    '',
    `function __${bin}_at --description 'Whether the words typed so far name this topic or command (with --next: and nothing after it)'`,
    `    set -l path (__${bin}_path)`,
    '    test "$path" = "$argv[1]"; or return 1',
    '    if test "$argv[2]" = --next',
    '        set -l words (commandline -opc)',
    '        test (count $words) -eq (math (count (string split -n : -- $path)) + 1)',
    '    end',
    'end',
    '',
  ]
  const at = (path, next = false) => `-n ${fishQuote(`__${bin}_at ${path === '' ? "''" : path}${next ? ' --next' : ''}`)}`
  for (const path of model.paths) {
    const children = model.children(path).filter((c) => WORD.test(c.word))
    const command = model.commands.find((c) => c.id === path)
    if (!children.length && !command) continue
    for (const child of children) lines.push(`complete -c ${bin} ${at(path, true)} -f -a ${fishQuote(child.word)} -d ${fishQuote(child.summary)}`)
    if (!command) continue
    for (const option of safeWords(command.argOptions)) lines.push(`complete -c ${bin} ${at(path, true)} -f -a ${fishQuote(option)}`)
    for (const f of command.flags) {
      const short = f.char ? ` -s ${f.char}` : ''
      const value = !f.takesValue ? '' : f.options ? ` -x -a ${fishQuote(safeWords(f.options).join(' '))}` : ' -r'
      lines.push(`complete -c ${bin} ${at(path)} -l ${f.name}${short}${value} -d ${fishQuote(f.summary)}`)
      if (f.allowNo) lines.push(`complete -c ${bin} ${at(path)} -l no-${f.name} -d ${fishQuote(f.summary)}`)
    }
  }
  return `${lines.join('\n')}\n`
}

const zshQuote = (s) => `'${String(s ?? '').replaceAll("'", "'\\''")}'`
/** `word:description` for _describe, the word's own colons escaped. */
const zshItem = (word, summary) => zshQuote(`${word.replaceAll(':', '\\:')}${summary ? `:${summary.replaceAll('\n', ' ')}` : ''}`)

export function zshCompletion(model) {
  const bin = model.bin
  const fn = `_${bin.replaceAll(/\W/g, '_')}`
  const known = safeWords(model.paths.filter(Boolean))
  const arms = []
  for (const path of model.paths) {
    const children = model.children(path).filter((c) => WORD.test(c.word))
    const command = model.commands.find((c) => c.id === path)
    if (!children.length && !command) continue
    const body = []
    body.push(`      children=(${children.map((c) => zshItem(c.word, c.summary)).join(' ')})`)
    if (command) {
      body.push(`      args=(${safeWords(command.argOptions).map(zshQuote).join(' ')})`)
      const flags = command.flags.flatMap((f) => safeWords(flagWords(f)).map((w) => zshItem(w, f.summary)))
      body.push(`      flags=(${flags.join(' ')})`)
      const values = command.flags.filter((f) => f.takesValue)
      if (values.length) {
        body.push('      case $prev in')
        for (const f of values) {
          const words = safeWords(flagWords(f).filter((w) => !w.startsWith('--no-')))
          if (!words.length) continue
          body.push(`        ${words.join('|')}) ${f.options ? `compadd -- ${safeWords(f.options).map(zshQuote).join(' ')}` : "_message 'a value'"}; return ;;`)
        }
        body.push('      esac')
      }
    }
    arms.push(`    (${path === '' ? "''" : path})\n${body.join('\n')}\n      ;;`)
  }
  return `#compdef ${bin}
# zsh completion for ${bin}: commands, flags and the values of flags that have a fixed set.
# Generated from the command manifest by svc-cli's shell/completions.js; do not edit.
# Install: save as _${bin} in a directory on $fpath (e.g. ~/.zfunc, with fpath=(~/.zfunc $fpath)
# before compinit in ~/.zshrc), or load it in this shell only with: source <(${bin} completion zsh)

${fn}() {
  local -a known children args flags
  known=(${known.join(' ')})
  # \`at\`, not \`path\`: zsh ties $path to $PATH.
  local at='' word next
  local -i i=2
  # The topic or command named by the words typed so far.
  while (( i < CURRENT )); do
    word=\${words[i]}
    next=\${at:+$at:}$word
    if (( \${known[(Ie)$next]} )); then at=$next; (( i++ )); else break; fi
  done
  local prev=\${words[CURRENT-1]}
  case $at in
${arms.join('\n')}
  esac
  if [[ $PREFIX == -* ]]; then
    (( \${#flags} )) && _describe -t flags 'flag' flags
  elif (( i == CURRENT )); then
    (( \${#children} )) && _describe -t commands 'command' children
    (( \${#args} )) && compadd -- $args
  fi
  return 0
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${bin}
fi
`
}

/**
 * Reads the package's own manifest and its plugins' manifests. The value lists (event types,
 * HTTP methods) are given by `svc completion`, which imports them; run as a script, they are read
 * from dist/ (the single executable has no dist/ on disk, hence the parameter).
 */
export async function loadModel(root = join(dirname(fileURLToPath(import.meta.url)), '..'), values = {}) {
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const manifestPath = join(root, 'oclif.manifest.json')
  if (!existsSync(manifestPath)) throw new Error(`No ${manifestPath}: run \`npm run build\` first.`)
  const commands = Object.values(JSON.parse(readFileSync(manifestPath, 'utf8')).commands)
  for (const plugin of pjson.oclif?.plugins ?? []) {
    const dir = findPackage(root, plugin)
    if (dir && existsSync(join(dir, 'oclif.manifest.json'))) commands.push(...Object.values(JSON.parse(readFileSync(join(dir, 'oclif.manifest.json'), 'utf8')).commands))
  }
  const topics = Object.fromEntries(Object.entries(pjson.oclif?.topics ?? {}).map(([name, t]) => [name.replaceAll(' ', ':'), t.description]))
  // The lists live in the compiled code (one source of truth); without a build, no value hints.
  const fromDist = async (file, name) => {
    const path = join(root, 'dist', 'lib', file)
    return existsSync(path) ? [...((await import(pathToFileURL(path).href))[name] ?? [])] : []
  }
  const eventTypes = values.eventTypes ? [...values.eventTypes] : await fromDist('contract/event-types.js', 'EVENT_TYPES')
  const methods = values.methods ? [...values.methods] : await fromDist('api/raw-input.js', 'RAW_METHODS')
  return completionModel({ bin: pjson.oclif?.bin ?? Object.keys(pjson.bin ?? {})[0], commands, topics, eventTypes, methods })
}

/** node_modules lookup from root upwards (a global install nests, a clone or npx may hoist). */
function findPackage(root, name) {
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const shell = process.argv[2]
  const generators = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion }
  if (!generators[shell]) {
    process.stderr.write('Usage: node shell/completions.js bash|zsh|fish\n')
    process.exit(2)
  }
  try {
    process.stdout.write(generators[shell](await loadModel()))
  } catch (error) {
    process.stderr.write(`${error.message}\n`)
    process.exit(1)
  }
}
