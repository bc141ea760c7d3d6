/**
 * MCP's create_charge runs the CLI's use-case: called twice with the same externalId and no
 * payerTaxNumber (a test key draws the CPF), the second call returns the first charge instead of
 * an isError conflict that would lead an agent to charge one order twice (issue 36.4). The
 * use-case's words reach the agent as the tool's: its arguments, never the CLI's flags or exit codes.
 */
import { describe, expect, it } from 'vitest'
import { toolErrorOf } from '../../../src/lib/mcp/results.js'
import { TOOLS } from '../../../src/lib/mcp/tools.js'
import type { McpSession } from '../../../src/lib/mcp/session.js'
import { useSandboxClient } from '../../helpers/sandbox-client.js'

const ctx = useSandboxClient()

describe('create_charge rerun', () => {
  it('the same {amountInCents, externalId} twice: one charge, the second call a replay', async () => {
    const create = TOOLS.find((t) => t.name === 'create_charge')!
    const session = { credentials: { environment: 'test' }, client: async () => ctx.client } as unknown as McpSession
    const first = await create.run({ amountInCents: 1500, externalId: 'order-3001' }, session)
    const again = await create.run({ amountInCents: 1500, externalId: 'order-3001' }, session)
    const { charge, created } = first.structured as { charge: { id: string }; created: boolean }
    expect(created).toBe(true)
    expect(again.structured).toMatchObject({ created: false, charge: { id: charge.id } })
  })

  it('a bad input names the arguments (by the input paths), not the flags', async () => {
    const create = TOOLS.find((t) => t.name === 'create_charge')!
    const session = { credentials: { environment: 'test' }, client: async () => ctx.client } as unknown as McpSession
    // Past the tool's schema (a direct run): the use-case's own check still answers in arguments.
    const err = await create.run({ amountInCents: 100, externalId: '' }, session).catch((e: unknown) => e)
    expect(toolErrorOf(err).error).toEqual({
      code: 'invalid_request',
      message: '2 arguments are invalid; nothing was sent.',
      details: [
        { field: 'amountInCents', message: 'must be at least 1000 (R$ 10,00)' },
        { field: 'externalId', message: 'must not be empty' },
      ],
    })
  })

  it('a replay of a charge no longer payable says so in the tool words: no exit code, no flag', async () => {
    const create = TOOLS.find((t) => t.name === 'create_charge')!
    const session = { credentials: { environment: 'test' }, client: async () => ctx.client } as unknown as McpSession
    const { charge } = (await create.run({ amountInCents: 1500, externalId: 'order-gone' }, session)).structured as { charge: { id: string } }
    await ctx.client.cancelCharge(charge.id)
    const again = await create.run({ amountInCents: 1500, externalId: 'order-gone' }, session)
    expect(again.text).toContain(
      `The existing charge ${charge.id} is canceled: its QR stays technically payable, so do not show it to the payer. Do not show its QR to a payer. To charge again, call create_charge with another externalId.`,
    )
    expect(again.text).not.toMatch(/exit 5|--|order-gone/)
    expect(again.text).toContain('No payerTaxNumber given: using the generated test CPF')
  })
})
