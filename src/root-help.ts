/**
 * `svc --version` and `svc --help` without loading oclif. Loading @oclif/core and its config
 * costs several times Node's own start-up, for two answers that are fixed text: the
 * user agent, and the root help rendered from the oclif manifests. This renders the same bytes
 * oclif would (a test compares both), and answers `undefined` whenever it is not sure — a
 * theme, templates, user plugins, an unusual colour setting, a narrow layout — so that oclif
 * renders it instead.
 */
import { arch, homedir, platform, release } from 'node:os'
import { dirname, join } from 'node:path'

// The bundle gives this module packaging/entries/embedded-fs.js for node:fs (no namespace of
// node:fs built at start-up, and the single executable's embedded package.json and manifests).
import * as fs from 'node:fs'

interface ManifestCommand {
  id: string
  summary?: string
  description?: string
  hidden?: boolean
}

interface PackageJson {
  name: string
  version: string
  description?: string
  oclif?: {
    bin?: string
    description?: string
    topics?: Record<string, { description?: string; hidden?: boolean }>
    plugins?: string[]
    topicSeparator?: string
    additionalHelpFlags?: string[]
    additionalVersionFlags?: string[]
    theme?: string
    dirname?: string
    helpClass?: string
    helpOptions?: unknown
    state?: string
    commands?: unknown
    hooks?: Record<string, unknown>
  }
}

export interface Terminal {
  env: NodeJS.ProcessEnv
  stdoutIsTTY: boolean
  stderrIsTTY: boolean
  /** Width of stdout when it is a terminal. */
  columns?: number
}

/** What oclif prints for `--version`: `name/version platform-arch node-vX`, or undefined under WSL (oclif names it `wsl`). */
export function userAgent(pjson: PackageJson): string | undefined {
  if (platform() === 'linux' && isWsl()) return undefined
  const cpu = arch() === 'ia32' ? 'x86' : arch()
  return `${pjson.name}/${pjson.version} ${platform()}-${cpu} node-${process.version}`
}

function isWsl(): boolean {
  if (/microsoft/i.test(release())) return true
  try {
    return /microsoft/i.test(fs.readFileSync('/proc/version', 'utf8'))
  } catch {
    return false
  }
}

export function readPackageJson(root: string): PackageJson {
  return JSON.parse(fs.readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson
}

/**
 * The answer to `svc` / `svc --help` / `svc --version` when it can be given without oclif;
 * undefined for any other argv, or when only oclif can be sure of the output.
 */
export function fastAnswer(root: string, argv: readonly string[], term: Terminal): string | undefined {
  if (argv.length > 1 || term.env.OCLIF_NEXT_VERSION !== undefined) return undefined
  const pjson = readPackageJson(root)
  const oclif = pjson.oclif ?? {}
  // Hooks that run before oclif answers (init, prerun, …) need oclif; command_not_found never
  // runs for --version or the root help, so it does not stand in the way.
  if (Object.keys(oclif.hooks ?? {}).some((name) => name !== 'command_not_found')) return undefined
  if (argv.length === 1 && ['--version', ...(oclif.additionalVersionFlags ?? [])].includes(argv[0]!)) {
    const ua = userAgent(pjson)
    return ua === undefined ? undefined : `${ua}\n`
  }
  if (argv.length === 0 || ['--help', ...(oclif.additionalHelpFlags ?? [])].includes(argv[0]!)) return renderRootHelp(root, pjson, term)
  return undefined
}

/** oclif's root help (Help#showRootHelp with the default formatter), or undefined when unsure. */
export function renderRootHelp(root: string, pjson: PackageJson, term: Terminal): string | undefined {
  const oclif = pjson.oclif ?? {}
  if (oclif.theme || oclif.helpClass || oclif.helpOptions || oclif.state || typeof oclif.commands !== 'string') return undefined
  // User-installed plugins live outside the package; only oclif knows them.
  if ((oclif.plugins ?? []).some((p) => p === '@oclif/plugin-plugins' || p === '@oclif/plugin-warn-if-update-available')) return undefined
  if (hasUserTheme(pjson, term.env)) return undefined
  const color = colorLevel(term)
  if (color === undefined) return undefined
  const width = helpWidth(term)
  const ua = userAgent(pjson)
  if (ua === undefined) return undefined

  const commands = loadCommands(root, pjson)
  if (!commands) return undefined
  const separator = oclif.topicSeparator === ' ' ? ' ' : ':'

  // Topics: the package's, plus one per visible command id and each of its prefixes (oclif's loadTopics).
  const topics = new Map<string, { description?: string; hidden?: boolean }>()
  for (const [name, t] of Object.entries(oclif.topics ?? {})) topics.set(name, { ...t })
  for (const c of commands) {
    if (c.hidden) continue
    const parts = c.id.split(':')
    while (parts.length > 0) {
      const name = parts.join(':')
      if (!topics.has(name)) topics.set(name, { description: c.summary || c.description })
      parts.pop()
    }
  }
  const names = [...topics.keys()]
  const rootTopics = names
    .filter((name) => names.some((other) => other.includes(`${name}:`)))
    .filter((name) => !topics.get(name)!.hidden && !name.includes(':'))
    .sort(byString)
  const rootCommands = uniqueById(commands.filter((c) => !c.hidden).sort((a, b) => byString(a.id, b.id))).filter((c) => c.id && !c.id.includes(':'))

  const bold = (text: string) => (color ? `\u001B[1m${text}\u001B[22m` : text)
  const f = new Formatter(width, bold)
  const description = oclif.description || pjson.description || ''
  if (description.includes('\n') || description.includes('<%')) return undefined // a DESCRIPTION section, a template: oclif's
  const rootPart = [description, f.section('VERSION', f.wrap(ua)), f.section('USAGE', f.wrap(`$ ${oclif.bin || pjson.name} [COMMAND]`))].filter(Boolean).join('\n\n')
  let out = `${rootPart}\n\n`
  if (rootTopics.length > 0) {
    const list = f.list(rootTopics.map((name) => [name.replaceAll(':', separator), (topics.get(name)!.description ?? '').split('\n', 1)[0]!]))
    if (list === undefined) return undefined
    out += `${f.section('TOPICS', list)}\n\n`
  }
  if (rootCommands.length > 0) {
    // The one template root commands use (plugin-help's "Display help for <%= config.bin %>.")
    // is rendered here as oclif would; any other template still leaves the answer to oclif.
    const bin = oclif.bin || pjson.name
    const list = f.list(rootCommands.map((c) => [c.id.replaceAll(':', separator), firstLine(c).replaceAll('<%= config.bin %>', bin)]))
    if (list === undefined) return undefined
    out += `${f.section('COMMANDS', list)}\n\n`
  }
  return out
}

function firstLine(c: ManifestCommand): string {
  return (c.summary ?? c.description ?? '').split('\n', 1)[0]!
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

function uniqueById(commands: ManifestCommand[]): ManifestCommand[] {
  const seen = new Set<string>()
  return commands.filter((c) => !seen.has(c.id) && seen.add(c.id))
}

/** The commands of the package's manifest and of its plugins' manifests; undefined when one is missing or stale. */
function loadCommands(root: string, pjson: PackageJson): ManifestCommand[] | undefined {
  const all: ManifestCommand[] = []
  const own = readManifest(root, pjson.version)
  if (!own) return undefined
  all.push(...own)
  for (const name of pjson.oclif?.plugins ?? []) {
    const pluginRoot = packageRoot(root, name)
    if (!pluginRoot) return undefined
    const plugin = readPackageJson(pluginRoot)
    if (plugin.name !== name) return undefined
    if (plugin.oclif?.plugins?.length) return undefined // nested plugins: leave them to oclif
    const commands = readManifest(pluginRoot, plugin.version)
    if (!commands) return undefined
    all.push(...commands)
  }
  return all
}

/** Where node_modules resolution from `root` finds the package `name` (plugins may not export package.json). */
function packageRoot(root: string, name: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (fs.existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

function readManifest(root: string, version: string): ManifestCommand[] | undefined {
  const path = join(root, 'oclif.manifest.json')
  if (!fs.existsSync(path)) return undefined
  const manifest = JSON.parse(fs.readFileSync(path, 'utf8')) as { version?: string; commands?: Record<string, ManifestCommand> }
  if (!manifest.commands || manifest.version?.split('-', 1)[0] !== version.split('-', 1)[0]) return undefined
  return Object.values(manifest.commands)
}

/** A theme.json in oclif's config dir (SVC_CONFIG_DIR, else ~/.config/svc) restyles the help: oclif's job. */
function hasUserTheme(pjson: PackageJson, env: NodeJS.ProcessEnv): boolean {
  const bin = (pjson.oclif?.bin || pjson.name).replaceAll('@', '').replaceAll(/[/-]/g, '_').toUpperCase()
  if (['true', '1'].includes(env[`${bin}_DISABLE_THEME`] ?? '')) return false
  const dir = env[`${bin}_CONFIG_DIR`] || join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), pjson.oclif?.dirname || pjson.name)
  return fs.existsSync(join(dir, 'theme.json'))
}

/** oclif's screen width: OCLIF_COLUMNS, else the terminal's (at least 40), else 80. */
function helpWidth(term: Terminal): number {
  const forced = Number.parseInt(term.env.OCLIF_COLUMNS ?? '', 10)
  if (forced) return forced
  if (!term.stdoutIsTTY) return 80
  const width = term.columns ?? 0
  if (width < 1) return 80
  return Math.max(40, width)
}

/**
 * Whether oclif would make the section headers bold (supports-color on stdout and stderr, then
 * ansis); undefined for settings where only oclif can tell (forced colour, CI, NO_COLOR…).
 */
function colorLevel(term: Terminal): boolean | undefined {
  const { env } = term
  if ('FORCE_COLOR' in env) return undefined
  // supports-color: a stream that is not a terminal gets no colour (before anything else is read).
  if (!term.stdoutIsTTY || !term.stderrIsTTY) return false
  // ansis: a non-empty NO_COLOR turns colour off.
  if (env.NO_COLOR) return false
  if (process.platform === 'win32' || 'CI' in env || 'TF_BUILD' in env || 'TEAMCITY_VERSION' in env || 'PM2_HOME' in env) return undefined
  const termName = env.TERM ?? ''
  if (termName === 'dumb') return false
  if (/-mono/i.test(termName)) return undefined
  if (env.COLORTERM === 'truecolor' || env.TERM_PROGRAM === 'iTerm.app' || env.TERM_PROGRAM === 'Apple_Terminal') return true
  if (/-256(color)?$/i.test(termName) || /^screen|^xterm|^vt100|^vt220|^rxvt|color|ansi|cygwin|linux/i.test(termName)) return true
  if ('COLORTERM' in env) return true
  return undefined
}

/** The parts of oclif's HelpFormatter that the root help uses, for plain (ASCII, single-space) text. */
class Formatter {
  constructor(
    private readonly width: number,
    private readonly bold: (text: string) => string,
  ) {}

  section(header: string, body: string): string {
    return `${this.bold(header)}\n${indent(body, 2)}`
  }

  wrap(text: string, spacing = 2): string {
    return wrapWords(text, this.width - spacing) ?? text
  }

  /** renderList with indentation 2 and a newline spacer; undefined when oclif would switch to its multi-line layout. */
  list(rows: Array<[string, string]>): string | undefined {
    // ejs templates (`<%= config.bin %>`): oclif renders them.
    if (rows.some(([name, description]) => `${name}${description}`.includes('<%'))) return undefined
    const left = Math.max(...rows.map(([l]) => l.length))
    const lines: string[] = []
    for (const [name, description] of rows) {
      if (!description.trim()) {
        lines.push(name.trim())
        continue
      }
      const wrapped = wrapWords(description.trim(), this.width - (2 + left + 2))
      if (wrapped === undefined) return undefined
      const [first, ...rest] = wrapped.split('\n').map((s) => s.trim())
      if (rest.length > 4) return undefined
      let row = `${name}${' '.repeat(left - name.length + 2)}${first}`
      if (rest.length > 0) row += `\n${indent(rest.join('\n'), left + 2)}`
      lines.push(row)
    }
    return lines.join('\n').trim()
  }
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces)
  return text.replace(/^(?!\s*$)/gm, pad)
}

/**
 * Greedy word wrap as wrap-ansi does it (hard, trimmed) for plain text; undefined when the text
 * is not plain (non-ASCII, tabs, runs of spaces) or a word is longer than a line.
 */
export function wrapWords(text: string, columns: number): string | undefined {
  if (!/^[\x20-\x7e\n]*$/.test(text) || / {2}/.test(text)) return undefined
  const out: string[] = []
  for (const paragraph of text.split('\n')) {
    let row = ''
    for (const word of paragraph.split(' ')) {
      if (word.length > columns) return undefined
      if (row === '') row = word
      else if (row.length + 1 + word.length <= columns) row += ` ${word}`
      else {
        out.push(row)
        row = word
      }
    }
    out.push(row)
  }
  return out.join('\n')
}
