/**
 * What `svc profiles …` and `svc logout` do to the stored profiles. Everything that leaves this
 * module is a ProfileSummary, where the key and the secret are already masked, so no command can
 * print them in full by mistake.
 */
import type { Environment } from '../contract/schemas.js'
import { environmentOfKey, maskSecret } from './mask.js'
import { CliError, EXIT } from '../errors.js'
import { type OpenProfiles, type Profile, type ProfileStore, profileNotFound } from './store.js'

/** The profiles `svc sandbox start` writes: its test key, and its live key. */
export const SANDBOX_PROFILE = 'sandbox'
export const SANDBOX_LIVE_PROFILE = 'sandbox-live'

export interface ProfileSummary {
  name: string
  default: boolean
  /** From the key prefix; null when the profile holds no key (logged out) or an unrecognised one. */
  environment: Environment | null
  baseUrl: string | null
  /** Masked (`svc_test_…a1b2`). */
  apiKey: string | null
  /** Masked. */
  webhookSecret: string | null
  /** (0.5) Present only when the profile has a relay (`svc login --relay`). */
  relayUrl?: string
  /** Masked; present only when the profile has one. */
  relayToken?: string
}

export function summarizeProfile(name: string, stored: Profile, isDefault: boolean): ProfileSummary {
  // A damaged profile being removed (see ProfileStore.open's `tolerate`) may hold non-strings.
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined)
  const profile: Profile = { apiKey: text(stored.apiKey), baseUrl: text(stored.baseUrl), webhookSecret: text(stored.webhookSecret) }
  return {
    name,
    default: isDefault,
    environment: (profile.apiKey && environmentOfKey(profile.apiKey)) || null,
    baseUrl: profile.baseUrl ?? null,
    apiKey: profile.apiKey ? maskSecret(profile.apiKey) : null,
    webhookSecret: profile.webhookSecret ? maskSecret(profile.webhookSecret) : null,
    ...(text(stored.relayUrl) ? { relayUrl: text(stored.relayUrl) } : {}),
    ...(text(stored.relayToken) ? { relayToken: maskSecret(text(stored.relayToken)) } : {}),
  }
}

/**
 * What these use-cases get from their door (the run's factory): the terminal's environment, for
 * SVC_PROFILE, and the stored profiles.
 */
export interface ProfilesContext {
  env: NodeJS.ProcessEnv
  openProfiles: OpenProfiles
}

export async function listProfiles({ openProfiles }: ProfilesContext): Promise<ProfileSummary[]> {
  const store = await openProfiles()
  const def = store.defaultProfile
  return store.names().map((name) => summarizeProfile(name, store.get(name) ?? {}, name === def))
}

/** The profile `show` and `logout` act on: the one named, else `SVC_PROFILE`, else the default. */
function targetName(store: ProfileStore, name: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  return name?.trim() || env.SVC_PROFILE?.trim() || store.defaultProfile
}

/**
 * `profiles use|show|remove NAME`: the profile is what the command acts on, so a missing one is
 * "not found" (exit 4), as a missing charge is. `--profile NAME` on any other command stays exit
 * 3: there the profile is the credentials, and no usable credentials is exit 3.
 */
async function onProfile<T>(act: () => Promise<T>): Promise<T> {
  try {
    return await act()
  } catch (err) {
    if (err instanceof CliError && err.code === 'profile_not_found') {
      throw new CliError(err.message, { exitCode: EXIT.notFound, code: err.code, hint: err.hint })
    }
    throw err
  }
}

export function showProfile(name: string | undefined, ctx: ProfilesContext): Promise<ProfileSummary & { configFile: string }> {
  return onProfile(() => showProfileIn(name, ctx))
}

async function showProfileIn(name: string | undefined, { env, openProfiles }: ProfilesContext): Promise<ProfileSummary & { configFile: string }> {
  const store = await openProfiles()
  const target = targetName(store, name, env)
  if (!target) throw profileNotFound('No profile named and no default profile.', store.names(), 'show one with `svc profiles show NAME`, or create one with `svc login`')
  const profile = store.require(target)
  return { ...summarizeProfile(target, profile, store.defaultProfile === target), configFile: store.path }
}

export function useProfile(name: string, { openProfiles }: ProfilesContext): Promise<ProfileSummary> {
  return onProfile(async () => {
    const store = await openProfiles()
    const profile = store.require(name)
    store.setDefault(name)
    return summarizeProfile(name, profile, true)
  })
}

export interface RemoveResult {
  removed: ProfileSummary
  /** Profiles left, when the removed one was the default (the user must choose another). */
  defaultCleared: boolean
  remaining: string[]
}

export function removeProfile(name: string, { openProfiles }: ProfilesContext): Promise<RemoveResult> {
  return onProfile(async () => {
    // The way out the invalid_config hint offers for a damaged profile: its own bad fields do not block its removal.
    const store = await openProfiles({ tolerate: name })
    const profile = store.require(name)
    const wasDefault = store.defaultProfile === name
    store.remove(name)
    return { removed: summarizeProfile(name, profile, wasDefault), defaultCleared: wasDefault, remaining: store.names() }
  })
}

export interface LogoutResult {
  /** Profiles whose key or secret was removed now. */
  loggedOut: ProfileSummary[]
  /** Profiles that held no credentials already. */
  already: string[]
}

/**
 * Removes the key and the webhook secret; keeps the profile's name and base URL, so that
 * `svc login --profile NAME` later needs nothing but the key. `svc profiles remove` deletes all.
 */
export async function logout(opts: { profile?: string; all: boolean }, { env, openProfiles }: ProfilesContext): Promise<LogoutResult> {
  const store = await openProfiles()
  let names: string[]
  if (opts.all) {
    names = store.names()
  } else {
    const target = targetName(store, opts.profile, env)
    if (target) store.require(target)
    names = target ? [target] : []
  }
  const result: LogoutResult = { loggedOut: [], already: [] }
  const def = store.defaultProfile
  for (const name of names) {
    const profile = store.get(name) ?? {}
    if (!profile.apiKey && !profile.webhookSecret && !profile.relayToken) {
      result.already.push(name)
      continue
    }
    result.loggedOut.push(summarizeProfile(name, profile, name === def))
    store.update(name, { apiKey: undefined, webhookSecret: undefined, relayToken: undefined })
  }
  return result
}
