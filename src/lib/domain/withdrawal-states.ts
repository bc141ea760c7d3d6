/**
 * The withdrawal state machine (spec 6.3): `processing` when the asset arrived and the instant
 * payment is being made, then `paid` (the payment reached the key) or `failed` (the provider
 * refused or returned it; the asset stays held). Beside charge-states.ts, once.
 */
export const WITHDRAWAL_STATUSES = ['processing', 'paid', 'failed'] as const
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number]

export interface WithdrawalTransition {
  from: WithdrawalStatus
  to: WithdrawalStatus
  event: string
}

export const WITHDRAWAL_TRANSITIONS: readonly WithdrawalTransition[] = [
  { from: 'processing', to: 'paid', event: 'withdrawal.paid' },
  { from: 'processing', to: 'failed', event: 'withdrawal.failed' },
]

/** The event a new withdrawal announces. */
export const WITHDRAWAL_STARTED_EVENT = 'withdrawal.processing'

/** The lane of a withdrawal, in the order it is drawn. */
export const WITHDRAWAL_LANE: readonly WithdrawalStatus[] = ['processing', 'paid']

export function withdrawalTransition(from: WithdrawalStatus, to: WithdrawalStatus): WithdrawalTransition | undefined {
  return WITHDRAWAL_TRANSITIONS.find((t) => t.from === from && t.to === to)
}
