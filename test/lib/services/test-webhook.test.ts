import { describe, expect, it, vi } from 'vitest'
import { CliError } from '../../../src/lib/errors.js'
import { sendTestWebhook, WEBHOOK_INACTIVE } from '../../../src/lib/services/test-webhook.js'
import { account } from '../../helpers/api-fixtures.js'

const client = (webhook: { url: string; active: boolean } | undefined) => ({
  getAccount: vi.fn(async () => account({ environment: 'test', webhook } as never)),
  testWebhook: vi.fn(async () => ({ sent: true }) as never),
})

describe('svc webhooks test', () => {
  it('sends the test event to an active endpoint', async () => {
    const c = client({ url: 'https://shop.example/hooks', active: true })
    await sendTestWebhook(c, { sandbox: false })
    expect(c.testWebhook).toHaveBeenCalledTimes(1)
  })

  it('sends nothing to an endpoint the service deactivated, ending with exit 9 and how to reactivate it', async () => {
    const c = client({ url: 'http://127.0.0.1:3000/hooks?a=1&b=2', active: false })
    const err = (await sendTestWebhook(c, { sandbox: true }).catch((e: unknown) => e)) as CliError
    expect(c.testWebhook).not.toHaveBeenCalled()
    expect(err).toBeInstanceOf(CliError)
    expect([err.exitCode, err.code]).toEqual([9, WEBHOOK_INACTIVE])
    expect(err.message).toContain('no test event was sent')
    // What to do next is typed: each door words it (command-kit/next-step-words.test.ts, mcp/next-step-words.test.ts).
    expect([err.next, err.hint]).toEqual([{ do: 'reactivate_then_test', url: 'http://127.0.0.1:3000/hooks?a=1&b=2', env: 'test', on: 'sandbox' }, undefined])
    const real = (await sendTestWebhook(c, { sandbox: false }).catch((e: unknown) => e)) as CliError
    expect(real.next).toMatchObject({ do: 'reactivate_then_test', on: 'service' })
  })
})
