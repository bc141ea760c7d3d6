/**
 * Posts one delivery the way the service does: one request, no redirect followed (a 3xx is an
 * answer, and not a success), given up after the time limit. Failures are classified so a row
 * can say plainly whether the endpoint could not be reached or did not answer.
 */
import { STATUS_CODES } from 'node:http'
import { errorCodeOf, OutboundClient, reasonOf, targetOf } from '../../net/outbound.js'
import type { Delivery } from './cases.js'

export type Answer =
  | { kind: 'answer'; status: number; statusText: string; location?: string; body: string }
  /** Nothing listens, the name does not resolve, TLS failed: no request reached a handler. */
  | { kind: 'unreachable'; reason: string }
  | { kind: 'timeout' }
  /** The connection was made but closed before an answer. */
  | { kind: 'closed'; reason: string }

export interface Transport {
  send(url: URL, delivery: Delivery, timeoutMs: number): Promise<Answer>
  close(): Promise<void>
}

const BODY_CAP = 2048

/** How `webhooks check` words a connection that was never made (net/outbound.ts sorts the reasons). */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
}

export function classifyError(err: unknown): Answer {
  const reason = reasonOf(err)
  const code = errorCodeOf(err)
  if (reason === 'timeout') return { kind: 'timeout' }
  if (reason === 'refused' || reason === 'unreachable' || reason === 'dns' || reason === 'connect_timeout') {
    return { kind: 'unreachable', reason: (code && UNREACHABLE[code]) ?? `${reason.replace('_', ' ')} (${code})` }
  }
  if (reason === 'tls') return { kind: 'unreachable', reason: `TLS error (${code})` }
  const message = err instanceof Error ? err.message : String(err)
  return { kind: 'closed', reason: code ? `${message} (${code})` : message }
}

export function createTransport(): Transport {
  // One connection, never reused: each row of the battery is judged on its own exchange.
  const client = new OutboundClient({ connections: 1, pipelining: 0 })
  return {
    async send(url, delivery, timeoutMs) {
      try {
        const res = await client.send({
          ...targetOf(url.href),
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
          timeoutMs,
          maxBodyBytes: BODY_CAP,
          overflow: 'cut',
        })
        const location = res.headers.location
        return {
          kind: 'answer',
          status: res.status,
          statusText: STATUS_CODES[res.status] ?? '',
          ...(location ? { location: Array.isArray(location) ? location[0]! : location } : {}),
          body: res.body.toString('utf8'),
        }
      } catch (err) {
        return classifyError(err)
      }
    },
    async close() {
      await client.close()
    },
  }
}
