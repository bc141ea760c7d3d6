/**
 * Which tools `svc mcp` offers (a live key gets read tools only unless writes are allowed;
 * --tools narrows; an unknown or held-back name is exit 2), how a bad argument is named, and how
 * a failure becomes an isError result with the error object and no key in it.
 */
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { ApiError, NetworkError, UsageError, EXIT } from '../../../src/lib/errors.js'
import { errorResult, successResult } from '../../../src/lib/mcp/results.js'
import { argumentIssues, chooseTools } from '../../../src/lib/mcp/server.js'
import { inputOf, TOOLS } from '../../../src/lib/mcp/tools.js'

const KEY = 'svc_test_0123456789abcdef0123'
const names = (tools: ReadonlyArray<{ name: string }>) => tools.map((t) => t.name)
const READ = ['get_charge', 'list_charges', 'get_account', 'settlement_report', 'decode_pix', 'verify_webhook', 'list_overdue', 'get_status', 'get_withdrawal']

describe('chooseTools', () => {
  it('offers every tool with a test key on a local sandbox', () => {
    const { offered, withheld } = chooseTools({ environment: 'test', sandbox: true, allowLiveWrites: false })
    expect(names(offered)).toEqual(names(TOOLS))
    expect(withheld).toEqual([])
  })

  it('offers only the read tools with a live key, and says why the others are held back', () => {
    const { offered, withheld } = chooseTools({ environment: 'live', sandbox: false, allowLiveWrites: false })
    expect(names(offered)).toEqual(READ)
    expect(withheld.find((w) => w.name === 'create_charge')?.why).toMatch(/--allow-live-writes/)
    expect(withheld.find((w) => w.name === 'trigger_event')?.why).toMatch(/local sandbox/)
    // An agent calling a tool not offered reads this: no command to run in a shell.
    for (const w of withheld) expect(w.why).not.toMatch(/`svc /)
  })

  it('offers the sandbox tools of the walk only against a sandbox, and its writes with a live key only when allowed', () => {
    const sandboxOnly = ['set_webhook', 'resend_delivery', 'set_account', 'get_clock']
    expect(names(chooseTools({ environment: 'test', sandbox: false, allowLiveWrites: false }).offered)).not.toEqual(expect.arrayContaining(sandboxOnly.slice(0, 1)))
    expect(names(chooseTools({ environment: 'test', sandbox: true, allowLiveWrites: false }).offered)).toEqual(expect.arrayContaining(sandboxOnly))
    const live = names(chooseTools({ environment: 'live', sandbox: true, allowLiveWrites: false }).offered)
    expect(live).toContain('get_clock')
    expect(live).not.toContain('set_webhook')
    expect(live).not.toContain('set_account')
  })

  it('offers the writes with a live key when allowed, but never the test-only advance', () => {
    const { offered } = chooseTools({ environment: 'live', sandbox: false, allowLiveWrites: true })
    expect(names(offered)).toContain('create_charge')
    expect(names(offered)).toContain('cancel_charge')
    expect(names(offered)).not.toContain('advance_charge')
  })

  it('narrows to --tools, and refuses an unknown name listing the known ones (exit 2)', () => {
    expect(names(chooseTools({ environment: 'test', sandbox: false, allowLiveWrites: false, only: ['get_charge', ' decode_pix'] }).offered)).toEqual(['get_charge', 'decode_pix'])
    const err = (() => {
      try {
        chooseTools({ environment: 'test', sandbox: true, allowLiveWrites: false, only: ['get_charge', 'creat_charge'] })
      } catch (e) {
        return e as UsageError
      }
    })()
    expect(err).toBeInstanceOf(UsageError)
    expect(err?.exitCode).toBe(EXIT.usage)
    expect(err?.message).toContain('creat_charge')
    expect(err?.hint).toContain(names(TOOLS).join(', '))
  })

  it('refuses --tools naming a tool the key cannot offer, rather than starting without it', () => {
    expect(() => chooseTools({ environment: 'live', sandbox: false, allowLiveWrites: false, only: ['get_charge', 'create_charge'] })).toThrow(/create_charge \(it changes things.*--allow-live-writes/)
  })
})

describe('argumentIssues', () => {
  it('names each bad field, and an argument the tool does not take', async () => {
    const create = TOOLS.find((t) => t.name === 'create_charge')!
    const parsed = (await inputOf(create)).safeParse({ amountInCents: 1500.5, metadata: { k: 'x'.repeat(501) }, amount: 1 })
    expect(parsed.success).toBe(false)
    const issues = argumentIssues(parsed.error as z.ZodError)
    expect(issues.map((i) => i.field).sort()).toEqual(['amount', 'amountInCents', 'metadata.k'])
    expect(issues.find((i) => i.field === 'amount')?.message).toBe('is not an argument of this tool')
  })
})

describe('results', () => {
  it('an API error is isError with the API error object, its status and request id', () => {
    const r = errorResult(new ApiError({ status: 409, code: 'charge_not_cancelable', message: 'already paid', requestId: 'req_1' }), [KEY])
    expect(r.isError).toBe(true)
    expect(r.structuredContent).toEqual({ error: { code: 'charge_not_cancelable', message: 'already paid', requestId: 'req_1' }, status: 409 })
    expect(r.content[0]!.text).toBe('The API refused (409 charge_not_cancelable): already paid requestId req_1')
  })

  it('a network failure says so', () => {
    const r = errorResult(new NetworkError('Could not connect to 127.0.0.1:9: connection refused.', { hint: 'Is the sandbox running?' }), [KEY])
    expect(r.structuredContent).toMatchObject({ error: { code: 'network_error' } })
    expect(r.content[0]!.text).toMatch(/^Network failure: Could not connect/)
  })

  it('never shows a key in full, in an error or a success', () => {
    const err = errorResult(new Error(`boom with Bearer ${KEY}`), [KEY])
    const ok = successResult({ structured: { echoed: KEY, other: 'svc_live_abcdefghijklmnopqrstu' }, text: `key ${KEY}` }, [KEY])
    const all = JSON.stringify([err, ok])
    expect(all).not.toContain(KEY)
    expect(all).not.toContain('svc_live_abcdefghijklmnopqrstu')
    expect(all).toContain('svc_test_…0123')
  })

  it('a success carries the object as structured content and as JSON text', () => {
    const r = successResult({ structured: { eventId: 'evt_1' }, text: 'Sent.' }, [KEY])
    expect(r).toEqual({
      content: [
        { type: 'text', text: 'Sent.' },
        { type: 'text', text: '{"eventId":"evt_1"}' },
      ],
      structuredContent: { eventId: 'evt_1' },
    })
  })
})
