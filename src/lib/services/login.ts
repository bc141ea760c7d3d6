/**
 * `svc login`: read a key (hidden prompt, or stdin), check it with `GET /v1/account`, store it in a
 * profile. The key is never an argument (argv is visible to other processes and kept in shell
 * history), never printed in full, and never stored before the service accepted it.
 */
import type { ApiClient, ClientOptions } from '../api/types.js'
import type { Account } from '../contract/schemas.js'
import { ApiError, AuthError, UsageError } from '../errors.js'
import type { IO } from '../output/io.js'
import { promptHidden } from '../input/prompt.js'
import { readStdinLines } from '../input/stdin.js'
import type { Environment } from '../contract/schemas.js'
import { environmentOfKey, maskSecret, redact, rememberSecret } from '../config/mask.js'
import { normalizeBaseUrl } from '../config/resolve.js'
import { isLoopbackHost } from '../net/loopback.js'
import { assertProfileName, type OpenProfiles, type Profile } from '../config/store.js'

export interface LoginOptions {
  profile?: string
  baseUrl?: string
  /** The key is the first line of stdin. */
  withKeyStdin: boolean
  /** The webhook secret is the next line of stdin, after the key. */
  withWebhookSecretStdin: boolean
  timeoutMs?: number
}

export interface LoginContext {
  io: IO
  /** The stored profiles (the run's factory's): opened only once the flags are checked. */
  openProfiles: OpenProfiles
  newApiClient: (opts: ClientOptions) => Promise<ApiClient>
  userAgent?: string
  /** Shows a warning on stderr (the command's styled one). */
  warn: (text: string) => void
}

export interface LoginResult {
  name: string
  profile: Profile
  environment: Environment
  account: Account
  /** The profile did not exist before. */
  created: boolean
  isDefault: boolean
  /** It became the default now (there was none). */
  becameDefault: boolean
  /** The webhook secret stored now, or kept from before, or none. */
  secret: 'new' | 'kept' | 'none'
}

/** The profile login writes to: `--profile`, `SVC_PROFILE`, else `default` (never the current default, which may be `sandbox`). */
export function loginProfileName(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag?.trim() || env.SVC_PROFILE?.trim() || 'default'
}

/**
 * Why `secret` cannot be a webhook secret, or undefined when it can be one. The spec fixes no
 * format (the sandbox's are `whsec_` + 48 hex), so this checks what any HMAC secret pasted from the
 * panel is: one word of printable ASCII, at least 16 characters, no shell syntax, not an API key.
 */
export function webhookSecretProblem(secret: string): string | undefined {
  if (/^svc_(live|test)_/.test(secret)) return 'that is an API key, not the webhook secret'
  if (/\s/.test(secret)) return 'it contains spaces: paste the secret alone, not a line of shell'
  if (!/^[\x21-\x7e]+$/.test(secret)) return 'it contains characters a secret cannot hold'
  if (/[$`"'|;&<>(){}\\]/.test(secret)) return 'it contains shell syntax ($, quotes, |, ;, …): paste the secret alone'
  if (secret.length < 16) return `it is too short (${secret.length} characters; a secret has at least 16)`
  if (secret.length > 256) return 'it is too long (over 256 characters)'
  return undefined
}

function checkSecretShape(secret: string, field: string): void {
  const problem = webhookSecretProblem(secret)
  if (problem) throw new UsageError(`This is not a webhook secret: ${problem}. Nothing was stored.`, { field, hint: 'Copy it again from the panel (API → Webhook).' })
}

/** Rejects a key the service cannot accept, before any request (exit 3). */
export function checkKeyShape(key: string): Environment {
  const environment = environmentOfKey(key)
  if (!environment) {
    throw new AuthError('The API key starts with neither svc_live_ nor svc_test_.', 'Copy the key again from the panel (API section); nothing was sent.')
  }
  // Spaces or control characters cannot travel in an Authorization header: a copy-paste accident.
  if (!/^[\x21-\x7e]+$/.test(key)) throw new AuthError('The API key contains spaces or characters a key cannot hold.', 'Copy the key again from the panel (API section).')
  return environment
}

export async function login(opts: LoginOptions, ctx: LoginContext): Promise<LoginResult> {
  const { io } = ctx
  const name = loginProfileName(opts.profile, io.env)
  assertProfileName(name)
  if (opts.withKeyStdin && io.isStdinTTY) {
    throw new UsageError('--with-key-stdin reads the key from a pipe, but stdin is a terminal.', {
      field: 'with-key-stdin',
      hint: 'Run `svc login` without it to type the key at a hidden prompt, or pipe it: `svc login --with-key-stdin < key.txt`.',
    })
  }
  if (!opts.withKeyStdin && !io.canPrompt) {
    throw new UsageError('No terminal to ask for the API key.', {
      field: 'with-key-stdin',
      hint: 'Pipe the key and pass --with-key-stdin, e.g. `printenv SVC_KEY | svc login --with-key-stdin --base-url URL`.',
    })
  }

  const store = await ctx.openProfiles()
  const existing = store.get(name)
  const rawUrl = opts.baseUrl?.trim() || io.env.SVC_BASE_URL?.trim() || existing?.baseUrl
  if (!rawUrl) {
    throw new UsageError('No base URL for this profile.', { field: 'base-url', hint: 'Pass --base-url URL (or set SVC_BASE_URL), e.g. `svc login --base-url https://api.example.com`.' })
  }
  const source = opts.baseUrl?.trim() ? '--base-url' : io.env.SVC_BASE_URL?.trim() ? 'SVC_BASE_URL' : `profile ${name}`
  const baseUrl = normalizeBaseUrl(rawUrl, source)
  if (isCleartext(baseUrl)) ctx.warn(`${baseUrl} is not https: the API key will travel unencrypted.`)

  let apiKey: string
  let newSecret: string | undefined
  if (opts.withKeyStdin) {
    const lines = await readStdinLines(io.stdin)
    apiKey = lines[0] ?? ''
    if (opts.withWebhookSecretStdin) {
      newSecret = lines[1]
      if (!newSecret) throw new UsageError('No webhook secret on stdin: expected it on the line after the key.', { field: 'with-webhook-secret-stdin' })
      // Checked before anything is sent or stored, as the key's shape is.
      checkSecretShape(newSecret.trim(), 'with-webhook-secret-stdin')
      newSecret = newSecret.trim()
    }
  } else {
    apiKey = await promptHidden(io, 'API key (svc_live_… or svc_test_…):')
  }
  if (!apiKey) throw new UsageError('No API key given.', { field: 'api-key', hint: 'Paste the key from the panel (API section).' })
  rememberSecret(apiKey, newSecret)
  const environment = checkKeyShape(apiKey)

  const account = await fetchAccount(ctx, opts, apiKey, baseUrl)
  if (account.environment !== environment) {
    ctx.warn(`the key says ${environment} but the service answered for ${account.environment}.`)
  }

  // Asked only once the key is known to work, and only when a human is typing.
  if (!opts.withKeyStdin) {
    const keep = existing?.webhookSecret ? `, Enter keeps ${maskSecret(existing.webhookSecret)}` : ', Enter to skip'
    // A typo is asked again (the key is already checked: starting over would be worse).
    for (;;) {
      newSecret = (await promptHidden(io, `Webhook secret (optional${keep}):`)) || undefined
      const problem = newSecret === undefined ? undefined : webhookSecretProblem(newSecret)
      if (!problem) break
      io.err(`Not a webhook secret: ${problem}. Try again (Enter to skip).\n`)
    }
  }

  const profile = store.update(name, { apiKey, baseUrl, ...(newSecret ? { webhookSecret: newSecret } : {}) })
  const becameDefault = !store.defaultProfile
  if (becameDefault) store.setDefault(name)
  return {
    name,
    profile,
    environment,
    account,
    created: !existing,
    isDefault: store.defaultProfile === name,
    becameDefault,
    secret: newSecret ? 'new' : profile.webhookSecret ? 'kept' : 'none',
  }
}

async function fetchAccount(ctx: LoginContext, opts: LoginOptions, apiKey: string, baseUrl: string): Promise<Account> {
  const { io } = ctx
  const debug = io.env.SVC_DEBUG === '1' ? (line: string) => io.err(`${redact(line, [apiKey])}\n`) : undefined
  const client = await ctx.newApiClient({ apiKey, baseUrl, timeoutMs: opts.timeoutMs, debug, userAgent: ctx.userAgent })
  try {
    return await client.getAccount()
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      throw rehint(error, 'The service refused this key: copy it again from the panel (API section). Nothing was stored.')
    }
    if (error instanceof ApiError && error.status === 404) {
      throw rehint(error, `No account endpoint at ${baseUrl}/v1/account: check --base-url (without /v1). Nothing was stored.`)
    }
    throw error
  } finally {
    await client.close().catch(() => {})
  }
}

function rehint(error: ApiError, hint: string): ApiError {
  return new ApiError({ status: error.status, code: error.apiCode, message: error.message, details: error.details, requestId: error.requestId, hint })
}

/** The key would cross the network in clear text: fine on loopback (the sandbox), worth a word elsewhere. */
function isCleartext(baseUrl: string): boolean {
  const { protocol, hostname } = new URL(baseUrl)
  return protocol === 'http:' && !isLoopbackHost(hostname)
}

export interface RelayLoginOptions {
  profile?: string
  /** `--relay URL[,URL…]`. */
  relay: string
  /** The token is the first line of stdin (else a hidden prompt). */
  withTokenStdin: boolean
}

export interface RelayLoginResult {
  name: string
  profile: Profile
  created: boolean
  relayUrl: string
  isDefault: boolean
}

/**
 * `svc login --relay URL`: stores the relay `webhooks listen` receives through, and its token, in
 * the profile (created if needed); the API key and the webhook secret are left as they are. The
 * token is read from stdin or a hidden prompt, never an argument, and only masked from then on.
 */
export async function loginRelay(opts: RelayLoginOptions, ctx: Pick<LoginContext, 'io' | 'openProfiles' | 'warn'>): Promise<RelayLoginResult> {
  const { io } = ctx
  const name = loginProfileName(opts.profile, io.env)
  assertProfileName(name)
  const { parseRelayUrls } = await import('../webhooks/relay-source.js')
  const urls = parseRelayUrls(opts.relay)
  if (urls.some((u) => u.protocol === 'http:' && !isLoopbackHost(u.hostname))) ctx.warn('the relay URL is not https: the relay token will travel unencrypted.')
  if (opts.withTokenStdin && io.isStdinTTY) {
    throw new UsageError('--relay-token-stdin reads the token from a pipe, but stdin is a terminal.', { field: 'relay-token-stdin', hint: 'Leave it out to type the token at a hidden prompt.' })
  }
  if (!opts.withTokenStdin && !io.canPrompt) {
    throw new UsageError('No terminal to ask for the relay token.', { field: 'relay-token-stdin', hint: 'Pipe it and pass --relay-token-stdin, e.g. `printenv TOKEN | svc login --relay URL --relay-token-stdin`.' })
  }
  const token = opts.withTokenStdin ? ((await readStdinLines(io.stdin))[0] ?? '') : await promptHidden(io, 'Relay token (from `svc relay token create`):')
  if (!token) throw new UsageError('No relay token given.', { field: 'relay-token-stdin', hint: 'The relay host prints it once: `svc relay token create NAME --channel C`.' })
  if (!/^[\x21-\x7e]{8,512}$/.test(token)) throw new UsageError('This is not a relay token: one word of printable ASCII, 8 to 512 characters. Nothing was stored.', { field: 'relay-token-stdin' })
  const store = await ctx.openProfiles()
  const existing = store.get(name)
  const relayUrl = urls.map((u) => u.href).join(',')
  const profile = store.update(name, { relayUrl, relayToken: token })
  if (!store.defaultProfile) store.setDefault(name)
  return { name, profile, created: !existing, relayUrl, isDefault: store.defaultProfile === name }
}
