/** Identifiers and secrets the sandbox hands out. */
import { randomBytes, randomFillSync } from 'node:crypto'
import type { Environment } from '../../contract/schemas.js'
import { eventIdAt, instantHex } from '../../domain/event-id.js'

// Random bytes are drawn from the system's generator 4 KiB at a time, each byte used once: a
// creation needs three ids, and one call per id cost more than the rest of the id.
const POOL = Buffer.allocUnsafe(4096)
let used = POOL.length

export function randomHex(bytes: number): string {
  if (bytes > POOL.length) return randomBytes(bytes).toString('hex')
  if (used + bytes > POOL.length) {
    randomFillSync(POOL)
    used = 0
  }
  const hex = POOL.toString('hex', used, used + bytes)
  used += bytes
  return hex
}

/**
 * A charge id: 24 hex characters, the creation instant (ms, 12 hex) then the row's sequence
 * number (12 hex), so ids grow with creation and break ties of equal `createdAt` in the list
 * order (newest first) across restarts.
 */
export function chargeId(createdMs: number, seq: number): string {
  return instantHex(createdMs) + seq.toString(16).padStart(12, '0').slice(-12)
}

/** An event id (domain/event-id.ts): growing with time, a third fewer pages written per creation. */
export const newEventId = (atMs: number): string => eventIdAt(atMs, randomHex(6))
export const newRequestId = (): string => `req_${randomHex(12)}`
export const newApiKey = (env: Environment): string => `svc_${env}_${randomHex(16)}`
export const newWebhookSecret = (): string => `whsec_${randomHex(24)}`
export const newMerchantId = (): string => `mrc_${randomHex(8)}`
/** A withdrawal's id: 24 hex characters, its instant then 48 random bits, like a charge's. */
export const newResourceId = (atMs: number): string => `${instantHex(atMs)}${randomHex(6)}`
/**
 * A Pix end-to-end id (32 characters): E, the paying institution's ISPB (8 digits, all zeros for
 * the sandbox), the instant as yyyyMMddHHmm (UTC) and 11 random alphanumerics.
 */
export function newEndToEndId(atMs: number): string {
  const stamp = new Date(atMs).toISOString().replace(/[-T:]/g, '').slice(0, 12)
  return `E00000000${stamp}${randomHex(6).slice(0, 11)}`
}
export const newBlockchainTxId = (): string => `0x${randomHex(32)}`
