/**
 * `svc --version` and `svc --help` without loading oclif. Loading @oclif/core and its config
 * costs several times Node's own start-up, for two answers that are fixed text: the user agent,
 * and the root help, which the build renders with oclif's own Help for every width it can take
 * (packaging/root-help.js writes dist-bundle/root-help.json). This picks the render for the
 * terminal at hand, and answers `undefined` whenever it is not sure — a user theme, user plugins,
 * an unusual colour setting, a layout the build did not render — so that oclif renders it instead.
 */
import { arch, homedir, platform, release } from 'node:os'
import { join } from 'node:path'

// The bundle gives this module packaging/entries/embedded-fs.js for node:fs (no namespace of
// node:fs built at start-up, and the single executable's embedded package.json and root help).
import * as fs from 'node:fs'

interface PackageJson {
  name: string
  version: string
  oclif?: {
    bin?: string
    plugins?: string[]
    additionalHelpFlags?: string[]
    additionalVersionFlags?: string[]
    dirname?: string
    hooks?: Record<string, unknown>
  }
}

/** dist-bundle/root-help.json: each distinct line once; per width from which a render holds, its plain and colour lines. */
interface RootHelpData {
  version: string
  /** Stands for the user agent in the lines. */
  token: string
  lines: string[]
  variants: Array<[fromWidth: number, plain: number[], color: number[]]>
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

/** oclif's root help as the build rendered it, or undefined when unsure. */
export function renderRootHelp(root: string, pjson: PackageJson, term: Terminal): string | undefined {
  // User-installed plugins live outside the package; only oclif knows them.
  if ((pjson.oclif?.plugins ?? []).some((p) => p === '@oclif/plugin-plugins' || p === '@oclif/plugin-warn-if-update-available')) return undefined
  if (hasUserTheme(pjson, term.env)) return undefined
  const color = colorLevel(term)
  if (color === undefined) return undefined
  const width = helpWidth(term)
  const ua = userAgent(pjson)
  // The user agent is alone on its line (VERSION); a width that would wrap it is oclif's to render.
  if (ua === undefined || ua.length > width - 2) return undefined
  const path = join(root, 'dist-bundle', 'root-help.json')
  if (!fs.existsSync(path)) return undefined
  const data = JSON.parse(fs.readFileSync(path, 'utf8')) as RootHelpData
  if (data.version !== pjson.version) return undefined
  const variant = data.variants.findLast(([from]) => from <= width)
  if (!variant) return undefined
  return (color ? variant[2] : variant[1]).map((i) => data.lines[i]!.replace(data.token, ua)).join('\n')
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
