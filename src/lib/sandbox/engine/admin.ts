/**
 * The panel's view of the core (SandboxAdmin of types.ts), over the store: keys with
 * revocation and the account settings. Keys come back in full; the panel routes mask them.
 */
import { maskSecret } from '../../config/mask.js'
import type { SandboxClock } from './clock.js'
import type { KeyRecord, SandboxStore } from '../store/store.js'
import type { AccountSettings, SandboxAdmin, SandboxKey } from '../types.js'
import type { Environment } from '../../contract/schemas.js'

const SETTING_KEYS: ReadonlyArray<keyof AccountSettings> = ['feeBps', 'feeFixedInCents', 'settlementDelayHours', 'activated', 'blocked', 'merchantIdPresent', 'qrValiditySeconds', 'holdSettlements']

/** `onHoldReleased`: settlements were held and no longer are; the engine re-arms the waiting ones. */
export function createAdmin(store: SandboxStore, clock: SandboxClock, onHoldReleased: () => void = () => {}): SandboxAdmin {
  const full = (k: KeyRecord): SandboxKey => ({ key: k.key, environment: k.environment, revoked: k.revoked, createdAt: k.createdAt })
  return {
    listKeys: () => store.listKeys().map(full),
    createKey(environment: Environment) {
      const key = store.insertKey(environment, clock.nowDate().toISOString())
      return full(store.findKey(key)!)
    },
    revokeKey(key: string, environment?: Environment) {
      // The full key, or its masked form when that names exactly one key (what `keys list` shows).
      const inEnv = store.listKeys().filter((k) => environment === undefined || k.environment === environment)
      const exact = inEnv.find((k) => k.key === key)
      const masked = inEnv.filter((k) => maskSecret(k.key) === key)
      const target = exact ?? (masked.length === 1 ? masked[0] : undefined)
      if (!target) return undefined
      store.revokeKey(target.key)
      return full(store.findKey(target.key)!)
    },
    getSettings: () => store.getSettings(),
    updateSettings(patch: Partial<AccountSettings>) {
      const known: Partial<AccountSettings> = {}
      for (const k of SETTING_KEYS) if (patch[k] !== undefined) (known as Record<string, unknown>)[k] = patch[k]
      const wasHeld = store.getSettings().holdSettlements === true
      const next = store.updateSettings(known)
      if (wasHeld && next.holdSettlements !== true) onHoldReleased()
      return next
    },
  }
}
