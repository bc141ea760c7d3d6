/**
 * Where `svc webhooks listen` receives from: a relay (`--relay`/`--token`, else SVC_RELAY_URL and
 * SVC_RELAY_TOKEN, else the profile's, stored by `svc login --relay`), or, when none is named, its
 * own local server (undefined). Each value is checked here, before anything connects, and an error
 * names the flag, variable or profile field the user set.
 */
import { resolveProfile } from '../config/resolve.js'
import { UsageError } from '../errors.js'
import { isLoopbackHost } from '../net/loopback.js'
import type { RelayListenOptions } from './listen.js'

export interface RelayChoiceInput {
  relay?: string
  token?: string
  apiKey?: string
  profile?: string
  env: NodeJS.ProcessEnv
  /** One-line warnings for stderr (cleartext relay, a token on the command line). */
  warn: (message: string) => void
}

export async function resolveRelayListen(input: RelayChoiceInput): Promise<RelayListenOptions | undefined> {
  const { env, warn } = input
  const profile = input.apiKey ? undefined : await resolveProfile({ profile: input.profile }, env).catch(() => undefined)
  const stored = profile?.profile
  const url = input.relay?.trim()
    ? { text: input.relay, field: 'relay' }
    : env.SVC_RELAY_URL?.trim()
      ? { text: env.SVC_RELAY_URL, field: 'SVC_RELAY_URL' }
      : stored?.relayUrl
        ? { text: stored.relayUrl, field: `profile ${profile?.name} relayUrl` }
        : undefined
  if (!url) {
    if (input.token) throw new UsageError('--token is the relay token: it needs --relay URL (or SVC_RELAY_URL).', { field: 'token' })
    return undefined
  }
  // Loaded only when a relay is named: listening on the local server (the first frame) does not pay for it.
  const { parseRelayUrls } = await import('../webhooks/relay-source.js')
  const urls = parseRelayUrls(url.text, url.field)
  const cleartext = urls.filter((u) => u.protocol === 'http:' && !isLoopbackHost(u.hostname))
  if (cleartext.length > 0) warn(`${cleartext[0]!.href} is not https: the relay token and every event travel unencrypted.`)
  if (input.token) warn('--token is visible to other processes on this machine (ps, /proc). Prefer SVC_RELAY_TOKEN, or store it with `svc login --relay URL --relay-token-stdin`.')
  const token = (input.token || env.SVC_RELAY_TOKEN || stored?.relayToken || '').trim()
  if (!token) {
    throw new UsageError('No relay token.', {
      field: 'token',
      hint: 'Set SVC_RELAY_TOKEN (or pass --token, or store it with `svc login --relay URL --relay-token-stdin`); the relay host makes one with `svc relay token create NAME --channel C`.',
    })
  }
  return { urls, token }
}
