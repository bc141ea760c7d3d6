/**
 * A delivery worker that delivers nothing: it records the events it is given and keeps the
 * webhook endpoints in memory. The core's tests use it to see every event, and the sandbox
 * falls back to it only when the real worker (worker.ts) is not available.
 */
import type { DeliveryRecord } from '../../contract/panel.js'
import type { DeliveryWorker, StoredEvent, WebhookEndpoint } from '../types.js'
import type { Environment } from '../../contract/schemas.js'

export class RecordingDeliveries implements DeliveryWorker {
  readonly events: StoredEvent[] = []
  private readonly endpoints = new Map<Environment, WebhookEndpoint>()

  publish(event: StoredEvent): void {
    this.events.push(event)
  }

  getEndpoint(environment: Environment): WebhookEndpoint | undefined {
    return this.endpoints.get(environment)
  }

  removeEndpoint(environment: Environment): boolean {
    return this.endpoints.delete(environment)
  }

  setEndpoint(environment: Environment, url: string, active = true): WebhookEndpoint {
    const endpoint = { environment, url, active }
    this.endpoints.set(environment, endpoint)
    return endpoint
  }

  /** Nothing is delivered, so the log is empty and there is nothing to resend. */
  list(): DeliveryRecord[] {
    return []
  }

  resend(): undefined {
    return undefined
  }

  async close(): Promise<void> {}
}
