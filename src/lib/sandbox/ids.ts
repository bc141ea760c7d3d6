/** Identifiers and secrets the sandbox hands out. */
import { randomBytes } from 'node:crypto'

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex')
}

/**
 * A charge id: 24 hex characters, the creation instant (ms, 12 hex) then the row's sequence
 * number (12 hex), so ids grow with creation and break ties of equal `createdAt` in the list
 * order (newest first) across restarts.
 */
export function chargeId(createdMs: number, seq: number): string {
  return Math.max(0, createdMs).toString(16).padStart(12, '0').slice(-12) + seq.toString(16).padStart(12, '0').slice(-12)
}

export const newEventId = (): string => `evt_${randomHex(12)}`
export const newRequestId = (): string => `req_${randomHex(12)}`
export const newApiKey = (env: 'live' | 'test'): string => `svc_${env}_${randomHex(16)}`
export const newWebhookSecret = (): string => `whsec_${randomHex(24)}`
export const newMerchantId = (): string => `mrc_${randomHex(8)}`
export const newBlockchainTxId = (): string => `0x${randomHex(32)}`
