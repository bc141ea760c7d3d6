/**
 * The create-charge use-case against the sandbox over real HTTP, without oclif: the payer's tax
 * number (given, prompt, generated), the idempotency key named when the network fails, and the
 * next step of an external-id conflict (typed: each door words it).
 */
import { describe, expect, it } from 'vitest'
import { createClient } from '../../../src/lib/api/client.js'
import { nextStepInCliWords } from '../../../src/lib/command-kit/next-step-words.js'
import { NetworkError } from '../../../src/lib/errors.js'
import type { NextStep } from '../../../src/lib/next-step.js'
import { createCharge, type CreateChargeContext, notPayableNote, notPayableReason } from '../../../src/lib/services/create-charge.js'
import { useSandboxClient } from '../../helpers/sandbox-client.js'

const ctx = useSandboxClient()

function context(over: Partial<CreateChargeContext> = {}): CreateChargeContext & { notes: string[] } {
  const notes: string[] = []
  return { client: ctx.client, canPrompt: false, ask: async () => '', note: (t) => notes.push(t), notes, ...over }
}

describe('createCharge', () => {
  it('creates with the given tax number; a second run with the same idempotency key returns the same charge', async () => {
    const input = { amountInCents: 2500, idempotencyKey: 'order-7-attempt', payerTaxNumber: '529.982.247-25' }
    const first = await createCharge({ input, environment: 'test' }, context())
    expect(first.created).toBe(true)
    expect(first.charge.amount.grossInCents).toBe(2500)
    const again = await createCharge({ input, environment: 'test' }, context())
    expect(again).toMatchObject({ created: false, charge: { id: first.charge.id } })
  })

  it('no tax number, a test key and no terminal: a generated test CPF, said on the notes', async () => {
    const ctx = context()
    const { charge } = await createCharge({ input: { amountInCents: 1500 }, environment: 'test' }, ctx)
    expect(charge.status).toBe('awaiting_payment')
    expect(ctx.notes.join('\n')).toMatch(/test CPF/i)
  })

  it('no tax number, the same externalId twice: the same body, so the rerun returns the first charge (issue 36.4)', async () => {
    const input = () => ({ amountInCents: 1500, externalId: 'order-3001' })
    const first = await createCharge({ input: input(), environment: 'test' }, context())
    const again = await createCharge({ input: input(), environment: 'test' }, context())
    expect(first.created).toBe(true)
    expect(again).toMatchObject({ created: false, charge: { id: first.charge.id } })
  })

  it('no tax number, the same idempotency key twice (the rerun a network failure names): the same charge', async () => {
    const input = () => ({ amountInCents: 1500, idempotencyKey: 'retry-after-timeout-1' })
    const first = await createCharge({ input: input(), environment: 'test' }, context())
    const again = await createCharge({ input: input(), environment: 'test' }, context())
    expect(again).toMatchObject({ created: false, charge: { id: first.charge.id } })
  })

  it('no tax number on a terminal: asks, and uses the answer', async () => {
    const asked: string[] = []
    const ctx = context({ canPrompt: true, ask: async (q) => (asked.push(q), '529.982.247-25') })
    const { created } = await createCharge({ input: { amountInCents: 1500 }, environment: 'test' }, ctx)
    expect(created).toBe(true)
    expect(asked).toHaveLength(1)
  })

  it('an external id already used with another body: the next step is to read that order’s charge, never to create another', async () => {
    const ctx = context()
    await createCharge({ input: { amountInCents: 1500, externalId: "o'brien 1", payerTaxNumber: '52998224725' }, environment: 'test' }, ctx)
    const conflict = createCharge({ input: { amountInCents: 1600, externalId: "o'brien 1", payerTaxNumber: '52998224725' }, environment: 'test' }, ctx)
    await expect(conflict).rejects.toMatchObject({ exitCode: 5, next: { do: 'see_order_charge', externalId: "o'brien 1" }, hint: undefined })
    // In the CLI's words: the order id ready to paste (command-kit/next-step-words.test.ts).
    const next = ((await conflict.catch((e: unknown) => e)) as { next: NextStep }).next
    expect(nextStepInCliWords(next)).toContain(`--external-id 'o'\\''brien 1'`)
  })

  it('a network failure names the idempotency key used, so a rerun cannot create a second charge', async () => {
    const dead = createClient({ apiKey: ctx.sandbox.testKey, baseUrl: 'http://127.0.0.1:9', maxRetries: 0, sleep: async () => {} })
    const failing = createCharge({ input: { amountInCents: 1500, payerTaxNumber: '52998224725' }, environment: 'test' }, context({ client: dead }))
    const err = await failing.catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NetworkError)
    expect((err as NetworkError).next).toEqual({ do: 'retry_create', idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) })
  })

  it('a replayed charge that is no longer payable: the note says why and that no QR is shown', async () => {
    const input = { amountInCents: 1500, externalId: 'order-canceled', payerTaxNumber: '52998224725' }
    const { charge } = await createCharge({ input, environment: 'test' }, context())
    const canceled = await ctx.client.cancelCharge(charge.id)
    expect(notPayableNote(canceled)).toMatch(/order-canceled.*is canceled.*No QR shown; exit 5/)
    // The reason alone is any door's: no exit code, no flag; without the external id when asked.
    expect(notPayableReason(canceled)).toBe(`The existing charge for external id "order-canceled" (${canceled.id}) is canceled: its QR stays technically payable, so do not show it to the payer.`)
    expect(notPayableReason(canceled, false)).toBe(`The existing charge ${canceled.id} is canceled: its QR stays technically payable, so do not show it to the payer.`)
  })

  it('a bad input is an InputError naming its fields by path, before anything is sent', async () => {
    const bad = createCharge({ input: { amountInCents: 100, externalId: '', idempotencyKey: '' }, environment: 'test' }, context())
    await expect(bad).rejects.toMatchObject({
      name: 'InputError',
      issues: [
        { path: 'amountInCents', message: 'must be at least 1000 (R$ 10,00)' },
        { path: 'externalId', message: 'must not be empty' },
        { path: 'idempotencyKey', message: 'must not be empty' },
      ],
    })
  })
})
