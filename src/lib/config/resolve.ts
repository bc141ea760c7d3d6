/**
 * Credential resolution (CLI.md): `--api-key` > `SVC_API_KEY` > the profile chosen by
 * `--profile` / `SVC_PROFILE` / the default profile. Base URL and webhook secrets likewise.
 */
import { AuthError } from '../errors.js'
import { type Environment, environmentOfKey } from './mask.js'
import { type Profile, ProfileStore } from './store.js'

export interface CredentialFlags {
  'api-key'?: string
  'base-url'?: string
  profile?: string
  secret?: string[]
}

export interface Credentials {
  apiKey: string
  baseUrl: string
  environment: Environment
  profileName?: string
  /** Where the key came from, for messages: `--api-key`, `SVC_API_KEY` or `profile NAME`. */
  source: string
}

export interface ResolvedProfile {
  name?: string
  profile?: Profile
}

export async function resolveProfile(flags: CredentialFlags, env: NodeJS.ProcessEnv): Promise<ResolvedProfile> {
  const store = await ProfileStore.open(env)
  const name = flags.profile ?? env.SVC_PROFILE ?? store.defaultProfile
  if (!name) return {}
  const profile = store.get(name)
  if (!profile && (flags.profile || env.SVC_PROFILE)) {
    throw new AuthError(`No profile named "${name}".`, 'List profiles with `svc profiles list`, or create one with `svc login --profile NAME`.')
  }
  return { name, profile }
}

export async function resolveCredentials(flags: CredentialFlags, env: NodeJS.ProcessEnv = process.env): Promise<Credentials> {
  let apiKey = flags['api-key'] ?? env.SVC_API_KEY
  let baseUrl = flags['base-url'] ?? env.SVC_BASE_URL
  let source = flags['api-key'] ? '--api-key' : env.SVC_API_KEY ? 'SVC_API_KEY' : ''
  let profileName: string | undefined
  if (!apiKey || !baseUrl) {
    const { name, profile } = await resolveProfile(flags, env)
    profileName = name
    if (!apiKey && profile?.apiKey) {
      apiKey = profile.apiKey
      source = `profile ${name}`
    }
    baseUrl ??= profile?.baseUrl
  }
  if (!apiKey) {
    throw new AuthError(
      'No API key found.',
      'Run `svc login`, pass --api-key (or SVC_API_KEY), or start the local sandbox with `svc sandbox start` (it creates the `sandbox` profile).',
    )
  }
  const environment = environmentOfKey(apiKey)
  if (!environment) {
    throw new AuthError(`The API key from ${source} starts with neither svc_live_ nor svc_test_.`, 'Copy the key again from the panel (API section).')
  }
  if (!baseUrl) {
    throw new AuthError('No base URL configured.', 'Pass --base-url (or SVC_BASE_URL), or save one in the profile with `svc login --base-url URL`.')
  }
  return { apiKey, baseUrl: baseUrl.replace(/\/+$/, ''), environment, profileName, source }
}

/** Webhook secrets: `--secret` (repeatable) > `SVC_WEBHOOK_SECRET` > the profile's. */
export async function resolveWebhookSecrets(flags: CredentialFlags, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  if (flags.secret?.length) return flags.secret
  if (env.SVC_WEBHOOK_SECRET) return env.SVC_WEBHOOK_SECRET.split(',').filter(Boolean)
  const { profile } = await resolveProfile(flags, env)
  return profile?.webhookSecret ? [profile.webhookSecret] : []
}
