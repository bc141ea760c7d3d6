/**
 * The webhook endpoints and their health (spec 6.4.8): one URL per environment, saved by the
 * merchant; the last success of each; and the verdict at the end of a failed delivery's 24 h
 * window: an endpoint with no success in that window is deactivated (the e-mail notice is
 * logged) until its URL is saved again. Kept in delivery-log.ts's tables; the worker (worker.ts)
 * asks where an event goes and reports what came of each attempt.
 */
import { isHttpUrl } from '../../contract/url.js'
import type { WebhookEndpoint } from '../types.js'
import type { DeliveryLog } from './delivery-log.js'
import type { Environment } from '../../contract/schemas.js'

export interface EndpointInfo extends WebhookEndpoint {
  lastSuccessAt?: string
}

interface EndpointState {
  url: string
  active: boolean
  savedAt: number
  deactivatedAt?: number
  lastSuccessAt?: number
  /** Last lastSuccessAt written to the db (writes are throttled to one a second). */
  persistedSuccessAt?: number
}

export class Endpoints {
  private readonly endpoints = new Map<Environment, EndpointState>()

  /** `queue` joins a write to the worker's group commit; `log` is the sandbox's log. */
  constructor(
    private readonly store: DeliveryLog,
    private readonly queue: (write: () => void) => void,
    private readonly log: (line: string) => void,
  ) {
    for (const ep of store.endpoints()) {
      this.endpoints.set(ep.environment, { ...ep, persistedSuccessAt: ep.lastSuccessAt })
    }
  }

  /** Where the environment's events go, and whether it takes new ones. */
  target(environment: Environment): { readonly url: string; readonly active: boolean } | undefined {
    return this.endpoints.get(environment)
  }

  info(environment: Environment): EndpointInfo | undefined {
    const ep = this.endpoints.get(environment)
    return ep ? toEndpointInfo(environment, ep) : undefined
  }

  /** Saves the environment's URL; saving again reactivates a deactivated endpoint (spec 6.4.8). */
  save(environment: Environment, url: string, now: number): EndpointInfo {
    if (!isHttpUrl(url)) throw new RangeError(`not an http(s) URL: ${url}`)
    this.store.saveEndpoint(environment, url, now)
    const prev = this.endpoints.get(environment)
    const ep: EndpointState = { url, active: true, savedAt: now, lastSuccessAt: prev?.lastSuccessAt, persistedSuccessAt: prev?.persistedSuccessAt }
    this.endpoints.set(environment, ep)
    if (prev && !prev.active) this.log(`webhooks: ${environment} endpoint reactivated: ${url}`)
    return toEndpointInfo(environment, ep)
  }

  /** Removes the environment's URL. False when none was set. */
  remove(environment: Environment): boolean {
    if (!this.endpoints.delete(environment)) return false
    this.store.removeEndpoint(environment)
    return true
  }

  /** A delivery to the environment's endpoint succeeded at `at` (written at most once a second). */
  noteSuccess(env: Environment, at: number): void {
    const ep = this.endpoints.get(env)
    if (!ep) return
    if (ep.lastSuccessAt === undefined || at > ep.lastSuccessAt) ep.lastSuccessAt = at
    if (ep.persistedSuccessAt === undefined || ep.lastSuccessAt - ep.persistedSuccessAt >= 1000) {
      const value = ep.lastSuccessAt
      ep.persistedSuccessAt = value
      this.queue(() => this.store.noteEndpointSuccess(env, value))
    }
  }

  /** Writes the latest success not yet written (a flush: export, close). */
  persistLastSuccess(): void {
    for (const [env, ep] of this.endpoints) {
      if (ep.lastSuccessAt === undefined || ep.lastSuccessAt === ep.persistedSuccessAt) continue
      const value = ep.lastSuccessAt
      ep.persistedSuccessAt = value
      this.queue(() => this.store.noteEndpointSuccess(env, value))
    }
  }

  /** At the end of a failed delivery's 24 h window (it began at `firstAttemptAt`): deactivate an endpoint that had no success in it. */
  checkWindow(env: Environment, firstAttemptAt: number, due: number): void {
    const ep = this.endpoints.get(env)
    if (!ep || !ep.active || ep.savedAt > firstAttemptAt) return
    if (ep.lastSuccessAt !== undefined && ep.lastSuccessAt >= firstAttemptAt) return
    ep.active = false
    ep.deactivatedAt = due
    this.queue(() => this.store.deactivateEndpoint(env, due))
    this.log(
      `webhooks: [e-mail to the merchant] Your ${env} webhook endpoint ${ep.url} was deactivated: no delivery succeeded in the 24 h since ${iso(firstAttemptAt)}. ` +
        `Charges keep working; only the notices stop. Save the URL again to reactivate it (svc sandbox webhook set URL --env ${env}).`,
    )
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString()
}

function toEndpointInfo(environment: Environment, ep: EndpointState): EndpointInfo {
  return {
    environment,
    url: ep.url,
    active: ep.active,
    ...(ep.deactivatedAt !== undefined ? { deactivatedAt: iso(ep.deactivatedAt) } : {}),
    ...(ep.lastSuccessAt !== undefined ? { lastSuccessAt: iso(ep.lastSuccessAt) } : {}),
  }
}
