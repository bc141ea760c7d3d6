/**
 * MCP's create_charge runs the CLI's use-case: called twice with the same externalId and no
 * payerTaxNumber (a test key draws the CPF), the second call returns the first charge instead of
 * an isError conflict that would lead an agent to charge one order twice (issue 36.4).
 */
import { describe, expect, it } from 'vitest'
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
})
