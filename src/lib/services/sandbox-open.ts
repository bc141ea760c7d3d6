/**
 * `svc sandbox open` below the command: asks the sandbox for a one-time panel URL, checks it,
 * and hands it to the system's opener — or says to print it.
 *
 * The URL comes from the server, so it is checked before anything opens it: only http(s), and only
 * on the base URL's own origin (a hostile server could answer `file:///…`, or another site). The
 * opener takes the URL as one argv element and never goes through a shell: on Windows that rules
 * out `cmd /c start`, whose parser runs what follows an `&` (and cut the panel's `&next=` off).
 */
import { spawn } from 'node:child_process'
import { ResponseError, UsageError } from '../errors.js'
import type { Environment } from '../contract/schemas.js'

export const PANEL_PAGES = ['charges', 'deliveries', 'withdrawals', 'sales', 'webhook', 'keys', 'account', 'clock', 'bank'] as const

/** Starts the program in argv (detached); resolves whether it could be started. */
export type Opener = (argv: readonly string[]) => Promise<boolean>

export interface SandboxOpenOptions {
  /** A page of PANEL_PAGES or a charge id. */
  page: string
  /** The environment shown (--env); default: the key's. */
  env?: Environment
  /** The sandbox's base URL (the panel link must be on its origin) and the key's environment; asked for only once the page is valid. */
  target: () => Promise<{ baseUrl: string; environment: Environment }>
  /** `POST /_sandbox/panel-link`: a one-time URL into the panel. */
  panelLink: () => Promise<{ url: string }>
  /** Print the URL instead of opening it (--print, --json, piped, or no graphical session). */
  print: boolean
  platform?: NodeJS.Platform
  opener?: Opener
}

export type SandboxOpenResult =
  | { kind: 'printed'; url: string; next: string }
  | { kind: 'opened'; url: string; next: string }
  /** The opener could not be started: the caller prints the URL instead. */
  | { kind: 'failed'; url: string; next: string }

export async function runSandboxOpen(opts: SandboxOpenOptions): Promise<SandboxOpenResult> {
  const { page } = opts
  const isCharge = /^[0-9a-f]{24}$/.test(page)
  if (!isCharge && !(PANEL_PAGES as readonly string[]).includes(page)) {
    throw new UsageError(`PAGE must be one of ${PANEL_PAGES.join(', ')}, or a charge id (24 hexadecimal characters), not "${page}".`, { field: 'page' })
  }
  const target = await opts.target()
  const env = opts.env ?? target.environment
  const link = await opts.panelLink()
  const next = `/panel/${isCharge ? `charges/${page}` : page}?env=${env}`
  const url = panelUrl(link.url, target.baseUrl)
  url.searchParams.set('next', next)
  const full = url.href
  if (opts.print) return { kind: 'printed', url: full, next }
  const open = opts.opener ?? spawnOpener
  const ok = await open(openerArgv(full, opts.platform ?? process.platform))
  return { kind: ok ? 'opened' : 'failed', url: full, next }
}

/** The server's panel link, refused unless it is http(s) on the base URL's origin. */
export function panelUrl(raw: string, baseUrl: string): URL {
  const base = new URL(baseUrl)
  let url: URL | undefined
  try {
    url = new URL(raw)
  } catch {
    url = undefined
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== base.origin) {
    const shown = JSON.stringify(raw.length > 120 ? `${raw.slice(0, 120)}…` : raw)
    throw new ResponseError(`The sandbox at ${base.origin} answered a panel link that is not an http(s) URL on its own origin: ${shown}. Nothing was opened.`)
  }
  return url
}

/** The system's opener, the URL as its own argv element (no shell parses it). */
export function openerArgv(url: string, platform: NodeJS.Platform): string[] {
  if (platform === 'darwin') return ['open', url]
  // rundll32 hands its last argument to the default browser as is; cmd's `start` would parse `&`.
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler', url]
  return ['xdg-open', url]
}

const spawnOpener: Opener = (argv) =>
  new Promise<boolean>((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore', detached: true, shell: false })
    child.once('error', () => resolve(false))
    child.once('spawn', () => {
      child.unref()
      resolve(true)
    })
  })
