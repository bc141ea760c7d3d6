/**
 * Credential resolution (CLI.md): `--api-key` > `SVC_API_KEY` > the profile chosen by
 * `--profile` / `SVC_PROFILE` / the default profile. Base URL and webhook secrets likewise.
 * An empty flag or variable counts as absent (`SVC_PROFILE= svc …` must not select a profile named "").
 */
import { AuthError, UsageError } from '../errors.js'
import type { Environment } from '../contract/schemas.js'
import { environmentOfKey, rememberSecret } from './mask.js'
import { type Profile, ProfileStore } from './store.js'

export interface CredentialFlags {
  'api-key'?: string
  'base-url'?: string
  profile?: string
  /** Set when `profile` was not typed as --profile (the sandbox commands pass SVC_PROFILE's or `sandbox` there). */
  profileNotFromFlag?: boolean
  secret?: string[]
}

export interface Credentials {
  apiKey: string
  baseUrl: string
  environment: Environment
  profileName?: string
  /** Where the key came from, for messages: `--api-key`, `SVC_API_KEY` or `profile NAME`. */
  source: string
  /**
   * One line for stderr when SVC_API_KEY or SVC_BASE_URL beat the profile named by --profile
   * (CLI.md's order stands, but the user asked for that profile and must not act on another
   * account unknowingly); undefined otherwise.
   */
  envOverride?: string
}

export interface ResolvedProfile {
  name?: string
  profile?: Profile
}

function given(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}

/** The profile named by `--profile` / `SVC_PROFILE`, else the default one; a named profile that does not exist is exit 3. */
export async function resolveProfile(flags: CredentialFlags, env: NodeJS.ProcessEnv): Promise<ResolvedProfile> {
  const store = ProfileStore.read(env)
  const named = given(flags.profile) ?? given(env.SVC_PROFILE)
  if (named) return { name: named, profile: store.require(named) }
  const name = store.defaultProfile
  return name ? { name, profile: store.get(name) } : {}
}

/**
 * Checks and normalises a base URL: http(s) only, no credentials, query or fragment in it, no
 * trailing slash (the client appends `/v1/...`). `source` names where it came from, for the message.
 */
export function normalizeBaseUrl(raw: string, source = '--base-url'): string {
  const example = 'e.g. https://api.example.com or http://127.0.0.1:8787'
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw new UsageError(`The base URL from ${source} is not a URL: "${raw}".`, { field: 'base-url', hint: `Give an http(s) URL, ${example}.` })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`The base URL from ${source} must use http or https, not ${url.protocol.replace(/:$/, '')}.`, { field: 'base-url', hint: example })
  }
  // Credentials in a URL end up in logs and shell history; the API key travels in the Authorization header.
  if (url.username || url.password) throw new UsageError(`The base URL from ${source} must not contain a user name or password.`, { field: 'base-url' })
  if (url.search || url.hash) throw new UsageError(`The base URL from ${source} must not contain a query or a fragment.`, { field: 'base-url', hint: example })
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

export async function resolveCredentials(flags: CredentialFlags, env: NodeJS.ProcessEnv = process.env): Promise<Credentials> {
  let apiKey = given(flags['api-key']) ?? given(env.SVC_API_KEY)
  let source = given(flags['api-key']) ? '--api-key' : apiKey ? 'SVC_API_KEY' : ''
  let baseUrl = given(flags['base-url']) ?? given(env.SVC_BASE_URL)
  let urlSource = given(flags['base-url']) ? '--base-url' : 'SVC_BASE_URL'
  let profileName: string | undefined
  const overridden: Array<'SVC_API_KEY' | 'SVC_BASE_URL'> = []
  // A profile the user named is checked even when flags and env cover everything: a typo must not go unnoticed.
  if (!apiKey || !baseUrl || given(flags.profile) || given(env.SVC_PROFILE)) {
    const { name, profile } = await resolveProfile(flags, env)
    profileName = name
    if (given(flags.profile) && !flags.profileNotFromFlag && profile) {
      if (source === 'SVC_API_KEY' && profile.apiKey && profile.apiKey !== apiKey) overridden.push('SVC_API_KEY')
      if (urlSource === 'SVC_BASE_URL' && baseUrl && profile.baseUrl && !sameUrl(profile.baseUrl, baseUrl)) overridden.push('SVC_BASE_URL')
    }
    if (!apiKey && profile?.apiKey) {
      apiKey = profile.apiKey
      source = `profile ${name}`
    }
    if (!baseUrl && profile?.baseUrl) {
      baseUrl = profile.baseUrl
      urlSource = `profile ${name}`
    }
    if (!apiKey && name && profile) {
      throw new AuthError(`Profile "${name}" holds no API key (logged out).`, `Run \`svc login --profile ${name}\`, or pass --api-key (or SVC_API_KEY).`)
    }
  }
  if (!apiKey) {
    const stored = ProfileStore.read(env).names()
    if (!profileName && stored.length > 0) {
      // Profiles exist but none is the default: choosing one is the step, not logging in again.
      const pick = stored.includes('sandbox') ? 'sandbox' : stored[0]!
      throw new AuthError('No API key found: no default profile is set.', `Make one the default with \`svc profiles use ${pick}\`, or pass --profile NAME (stored: ${stored.join(', ')}).`)
    }
    throw new AuthError('No API key found.', 'Run `svc login`, pass --api-key (or SVC_API_KEY), or start the local sandbox with `svc sandbox start` (it creates the `sandbox` profile).')
  }
  const environment = environmentOfKey(apiKey)
  if (!environment) {
    throw new AuthError(`The API key from ${source} starts with neither svc_live_ nor svc_test_.`, 'Copy the key again from the panel (API section).')
  }
  if (!baseUrl) {
    throw new UsageError('No base URL configured.', {
      field: 'base-url',
      hint: 'Pass --base-url (or SVC_BASE_URL), or save one in the profile with `svc login --base-url URL`.',
    })
  }
  // From here on every text that leaves the process is masked against this key (config/mask.ts).
  rememberSecret(apiKey)
  const envOverride = overridden.length === 0 ? undefined : overrideWarning(overridden, profileName!)
  return { apiKey, baseUrl: normalizeBaseUrl(baseUrl, urlSource), environment, profileName, source, ...(envOverride ? { envOverride } : {}) }
}

/** Two base URLs that normalise alike (a trailing slash is no difference); an unreadable one differs. */
function sameUrl(a: string, b: string): boolean {
  try {
    return normalizeBaseUrl(a) === normalizeBaseUrl(b)
  } catch {
    return false
  }
}

function overrideWarning(vars: Array<'SVC_API_KEY' | 'SVC_BASE_URL'>, profile: string): string {
  const what = vars.map((v) => (v === 'SVC_API_KEY' ? 'API key' : 'base URL')).join(' and ')
  return `${vars.join(' and ')} ${vars.length > 1 ? 'override' : 'overrides'} the ${what} of --profile ${profile} (environment before profile); unset ${vars.length > 1 ? 'them' : 'it'} to use the profile's.`
}

/** Said on stderr whenever a webhook secret is passed as --secret, as --api-key is for keys. */
export const SECRET_FLAG_WARNING =
  "--secret is visible to other processes on this machine (ps, /proc). Prefer SVC_WEBHOOK_SECRET (comma-separated for rotation), or the profile's secret (`svc login`, `svc sandbox start` store it)."

/**
 * Webhook secrets: `--secret` (repeatable) > `SVC_WEBHOOK_SECRET` (comma-separated for rotation) > the profile's.
 * `keySource` (Credentials.source) is where the API key in use came from: a profile's secret is
 * used only with that profile's key, never beside a key from --api-key or SVC_API_KEY (it would
 * belong to another account, e.g. the sandbox's, and every real delivery would fail to verify).
 */
export async function resolveWebhookSecrets(flags: CredentialFlags, env: NodeJS.ProcessEnv = process.env, keySource?: string): Promise<string[]> {
  const fromFlags = (flags.secret ?? []).map((s) => s.trim()).filter(Boolean)
  // `--secret ""` (an unset variable in a script) is a mistake, not "use another secret": using
  // the profile's instead would check or verify with a secret the user did not mean.
  if ((flags.secret ?? []).length > 0 && fromFlags.length < flags.secret!.length) {
    throw new UsageError('--secret is empty.', { field: 'secret', hint: "Pass the secret itself (is the variable you passed set?), or leave --secret out to use SVC_WEBHOOK_SECRET or the profile's." })
  }
  if (fromFlags.length) return remembered(fromFlags)
  const fromEnv = (env.SVC_WEBHOOK_SECRET ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (fromEnv.length) return remembered(fromEnv)
  if (keySource !== undefined && !keySource.startsWith('profile ')) return []
  const { profile } = await resolveProfile(flags, env)
  return remembered(profile?.webhookSecret ? [profile.webhookSecret] : [])
}

/** Webhook secrets in use are masked wherever text leaves the process, as the key is. */
function remembered(secrets: string[]): string[] {
  rememberSecret(...secrets)
  return secrets
}
