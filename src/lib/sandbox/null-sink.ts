/**
 * A delivery worker that delivers nothing: it records the events it is given and keeps the
 * webhook endpoints in memory. The core's tests use it to see every event, and the sandbox
 * falls back to it only when the real worker (deliveries.ts) is not available.
 */
import type { DeliveryWorker, Env, StoredEvent, WebhookEndpoint } from './types.js'

export class RecordingDeliveries implements DeliveryWorker {
  readonly events: StoredEvent[] = []
  private readonly endpoints = new Map<Env, WebhookEndpoint>()

  publish(event: StoredEvent): void {
    this.events.push(event)
  }

  getEndpoint(environment: Env): WebhookEndpoint | undefined {
    return this.endpoints.get(environment)
  }

  removeEndpoint(environment: Env): boolean {
    return this.endpoints.delete(environment)
  }

  setEndpoint(environment: Env, url: string, active = true): void {
    this.endpoints.set(environment, { environment, url, active })
  }

  async close(): Promise<void> {}
}
