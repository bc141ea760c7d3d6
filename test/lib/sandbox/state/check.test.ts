/**
 * Issue 29 items 6 and 9: a seed the sandbox cannot honour is refused before the first write,
 * naming its field, and leaves the data dir as it was — a busy port included. Hand-made hostile
 * seeds (one per thing the engine relies on) and a property: whatever one field of a good state
 * is replaced with, the state is either refused with a SandboxStateError (nothing written) or the
 * sandbox starts and answers; it never crashes half way.
 */
import { createServer, type Server } from 'node:net'
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../../../src/public/sandbox.js'
import { startSandboxServer } from '../../../../src/lib/sandbox/sandbox.js'
import { parseState, type SandboxState, SandboxStateError } from '../../../../src/lib/sandbox/state/state.js'
import { createCharge } from '../faults/merchant.js'

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0)
const root = mkdtempSync(join(tmpdir(), 'svc-hostile-'))
let good: SandboxState
let n = 0
const freshDir = () => join(root, `data-${++n}`)

type Rows = Record<string, Array<Record<string, unknown>>>
/** A row's JSON body, edited freely by the hostile cases. */
// biome-ignore lint/suspicious/noExplicitAny: a hostile edit reaches any field of any body
type Body = Record<string, any>
const copy = (): SandboxState & { tables: Rows } => structuredClone(good) as SandboxState & { tables: Rows }
/** The index of the first row of `table` matching, and the row's body parsed. */
function rowWhere(s: { tables: Rows }, table: string, test: (row: Record<string, unknown>, body: Body) => boolean): number {
  const i = s.tables[table]!.findIndex((r) => test(r, typeof r.body === 'string' ? JSON.parse(r.body as string) : {}))
  if (i < 0) throw new Error(`no ${table} row matches`)
  return i
}
function editBody(s: { tables: Rows }, table: string, i: number, edit: (body: Body) => void): void {
  const body = JSON.parse(s.tables[table]![i]!.body as string)
  edit(body)
  s.tables[table]![i]!.body = JSON.stringify(body)
}

beforeAll(async () => {
  const sb = await startSandbox({ clock: { manual: true, start: T0 } })
  await sb.setWebhookUrl('http://127.0.0.1:9/nobody-listens')
  const paid = await createCharge(sb.baseUrl, sb.testKey, 'order-paid')
  const settled = await createCharge(sb.baseUrl, sb.testKey, 'order-settled')
  await createCharge(sb.baseUrl, sb.testKey, 'order-open')
  await sb.advance(paid, 'paid_pending_settlement')
  await sb.advance(settled, 'settled')
  await fetch(`${sb.baseUrl}/v1/webhooks/test`, { method: 'POST', headers: { authorization: `Bearer ${sb.testKey}` } })
  await sb.trigger('charge.split.completed')
  await sb.trigger('withdrawal.paid')
  await sb.trigger('product.paid')
  await sb.clock.advance('20s')
  good = parseState(await sb.exportState())
  await sb.close()
})

afterAll(() => {})

/** Starting from `seed` into a new data dir is refused naming `field`, and the dir is not left behind. */
async function refusedAt(seed: unknown, field: string | RegExp): Promise<void> {
  const dataDir = freshDir()
  const err = await startSandbox({ seed: seed as object, dataDir, port: 0 }).then(
    async (s) => {
      await s.close()
      return undefined
    },
    (e: unknown) => e,
  )
  expect(err, `accepted; expected a refusal at ${field}`).toBeInstanceOf(SandboxStateError)
  if (typeof field === 'string') expect((err as SandboxStateError).field).toBe(field)
  else expect((err as SandboxStateError).field).toMatch(field)
  expect(existsSync(dataDir)).toBe(false)
}

describe('hostile seeds are refused before the first write, naming the field', () => {
  it('the export of a busy sandbox (every table, a charge.test, a pending delivery) passes', async () => {
    const dataDir = freshDir()
    const s = await startSandbox({ seed: good, dataDir, port: 0 })
    await s.close()
    expect(readdirSync(dataDir)).toContain('sandbox.db')
  })

  const cases: Array<[string, (s: { tables: Rows; clock: { now: string }; exportedAt: string }) => string | RegExp]> = [
    [
      'a fee that does not balance (fee + net ≠ gross)',
      (s) => {
        const i = rowWhere(s, 'charges', () => true)
        editBody(s, 'charges', i, (b) => (b.amount.netInCents += 1))
        return `tables.charges[${i}].body.amount.netInCents`
      },
    ],
    [
      'a negative fee',
      (s) => {
        editBody(s, 'charges', 0, (b) => {
          b.amount.feeInCents = -100
          b.amount.netInCents = b.amount.grossInCents + 100
        })
        return 'tables.charges[0].body.amount.feeInCents'
      },
    ],
    [
      'a settled charge without its blockchainTxId',
      (s) => {
        const i = rowWhere(s, 'charges', (r) => r.status === 'settled')
        editBody(s, 'charges', i, (b) => delete b.settlement.blockchainTxId)
        return `tables.charges[${i}].body.settlement.blockchainTxId`
      },
    ],
    [
      'a paid charge without estimatedAt (its settlement timer)',
      (s) => {
        const i = rowWhere(s, 'charges', (r) => r.status === 'paid_pending_settlement')
        editBody(s, 'charges', i, (b) => delete b.settlement.estimatedAt)
        return `tables.charges[${i}].body.settlement.estimatedAt`
      },
    ],
    [
      "a row's status that is not its body's",
      (s) => {
        s.tables.charges![0]!.status = 'settled'
        return 'tables.charges[0].body.status'
      },
    ],
    [
      'an unknown charge status',
      (s) => {
        s.tables.charges![0]!.status = 'teleported'
        editBody(s, 'charges', 0, (b) => (b.status = 'teleported'))
        return 'tables.charges[0].body.status'
      },
    ],
    [
      'a charge expiry that is no instant',
      (s) => {
        editBody(s, 'charges', 0, (b) => (b.pix.expiresAt = 'soon'))
        return 'tables.charges[0].body.pix.expiresAt'
      },
    ],
    [
      'two charges with one id',
      (s) => {
        s.tables.charges![1]!.id = s.tables.charges![0]!.id
        return 'tables.charges[1].id'
      },
    ],
    [
      'a charge id that is not 24 hex',
      (s) => {
        s.tables.charges![0]!.id = 'ZZZ'
        return 'tables.charges[0].id'
      },
    ],
    [
      'two charges with one seq',
      (s) => {
        s.tables.charges![1]!.seq = s.tables.charges![0]!.seq
        return 'tables.charges[1].seq'
      },
    ],
    [
      'a delivery of an event the state does not hold',
      (s) => {
        s.tables.webhook_deliveries![0]!.event_id = 'evt_00000000000000000000'
        return 'tables.webhook_deliveries[0].event_id'
      },
    ],
    [
      'an attempt of a delivery the state does not hold',
      (s) => {
        s.tables.webhook_attempts![0]!.delivery_id = 999_999
        return 'tables.webhook_attempts[0].delivery_id'
      },
    ],
    [
      'a pending delivery with no next attempt',
      (s) => {
        const i = rowWhere(s, 'webhook_deliveries', (r) => r.state === 'pending')
        s.tables.webhook_deliveries![i]!.next_retry_ms = null
        return /^tables\.webhook_deliveries\[\d+\]\.next_retry_ms$/
      },
    ],
    [
      'a merchant that is not JSON',
      (s) => {
        const i = s.tables.meta!.findIndex((r) => r.key === 'merchant')
        s.tables.meta![i]!.value = '{not json'
        return `tables.meta[${i}].value`
      },
    ],
    [
      'a webhook secret that is empty',
      (s) => {
        const i = s.tables.meta!.findIndex((r) => r.key === 'merchant')
        const m = JSON.parse(s.tables.meta![i]!.value as string)
        m.webhookSecret = ''
        s.tables.meta![i]!.value = JSON.stringify(m)
        return `tables.meta[${i}].value.webhookSecret`
      },
    ],
    [
      'a test key in the live environment',
      (s) => {
        const i = s.tables.api_keys!.findIndex((r) => r.environment === 'test')
        s.tables.api_keys![i]!.environment = 'live'
        return `tables.api_keys[${i}].key`
      },
    ],
    [
      'a clock in 1970',
      (s) => {
        s.clock.now = '1970-01-01T00:00:00.000Z'
        return 'clock.now'
      },
    ],
    [
      'a clock before the charges it holds',
      (s) => {
        s.clock.now = new Date(T0 - 3_600_000).toISOString()
        return 'clock.now'
      },
    ],
    [
      'an exportedAt carrying a terminal escape (issue 29 item 9)',
      (s) => {
        s.exportedAt = '\u001b]0;owned\u0007\u001b[2J'
        return 'exportedAt'
      },
    ],
    [
      'an exportedAt of a megabyte (issue 29 item 9)',
      (s) => {
        s.exportedAt = `2026-11-22T12:00:00.000Z${' '.repeat(1 << 20)}`
        return 'exportedAt'
      },
    ],
    [
      "a split charge's division that is no division",
      (s) => {
        const i = rowWhere(s, 'charges', (_r, b) => b.split !== undefined)
        editBody(s, 'charges', i, (b) => (b.split = { status: 'pending', destinations: 5 }))
        return `tables.charges[${i}].body.split.destinations`
      },
    ],
    [
      'a withdrawal still processing with no end',
      (s) => {
        s.tables.withdrawals![0]!.status = 'processing'
        s.tables.withdrawals![0]!.due_ms = null
        editBody(s, 'withdrawals', 0, (b) => (b.status = 'processing'))
        return 'tables.withdrawals[0].due_ms'
      },
    ],
  ]
  for (const [what, spoil] of cases) {
    it(what, async () => {
      const s = copy()
      const field = spoil(s as never)
      await refusedAt(s, field)
    })
  }
})

describe('all or nothing on the data dir', () => {
  let busy: Server
  let port: number
  beforeAll(async () => {
    busy = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    port = (busy.address() as { port: number }).port
  })
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())))

  it('a good seed on a busy port leaves a new data dir absent, an empty one empty, and a later start seeds it', async () => {
    const absent = freshDir()
    await expect(startSandboxServer({ state: good, dataDir: absent, port })).rejects.toMatchObject({ code: 'EADDRINUSE' })
    expect(existsSync(absent)).toBe(false)

    const empty = freshDir()
    mkdirSync(empty)
    await expect(startSandboxServer({ state: good, dataDir: empty, port })).rejects.toMatchObject({ code: 'EADDRINUSE' })
    expect(readdirSync(empty)).toEqual([])

    const again = await startSandboxServer({ state: good, dataDir: empty, port: 0 })
    expect(again.testKey).toBe(good.tables.api_keys.find((k) => k.environment === 'test')!.key)
    await again.close()
  })

  it('a database that was there, empty, is emptied of the seed again when the port is busy', async () => {
    const dataDir = freshDir()
    // An empty database: made by a start that was refused (its keys would be a sandbox, so none).
    const first = await startSandboxServer({ state: good, dataDir, port })
      .then(() => 'started')
      .catch(() => 'refused')
    expect(first).toBe('refused')
    mkdirSync(dataDir, { recursive: true })
    const { openDatabase } = await import('../../../../src/lib/sandbox/store/db.js')
    openDatabase({ dataDir }).close()
    await expect(startSandboxServer({ state: good, dataDir, port })).rejects.toMatchObject({ code: 'EADDRINUSE' })
    const ok = await startSandboxServer({ state: good, dataDir, port: 0 })
    await ok.close()
  })
})

describe('any one field of a good state replaced (property)', () => {
  /** Every [table, row, column] of the good state, and the values a hostile seed puts there. */
  const spots = () => {
    const out: Array<[string, number, string]> = []
    for (const [table, rows] of Object.entries(good.tables as unknown as Rows)) {
      for (const [i, row] of rows.entries()) for (const col of Object.keys(row)) out.push([table, i, col])
    }
    return out
  }
  const hostile = fc.oneof(
    fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
    fc.constantFrom(0, 1, -1, null, '', '{}', '[]', 'null', 'x'.repeat(300), '\u001b[2J', 'evt_', '2026-11-22T12:00:00.000Z', 'pending', 'settled', 'test', 'live'),
    fc.string({ maxLength: 40 }),
    fc.json({ maxDepth: 2 }),
  )

  it('is refused with a SandboxStateError naming a field, or starts and answers; never anything else', async () => {
    const all = spots()
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: all.length - 1 }), hostile, async (at, value) => {
        const [table, i, col] = all[at]!
        const s = copy()
        s.tables[table]![i]![col] = value
        let parsed: SandboxState
        try {
          parsed = parseState(s)
        } catch (err) {
          expect(err).toBeInstanceOf(SandboxStateError)
          expect((err as SandboxStateError).field).toMatch(/^(tables\.\w+\[\d+\]|clock|exportedAt|format)/)
          return
        }
        const sb = await startSandbox({ seed: parsed, port: 0, clock: { manual: true } })
        try {
          const r = await fetch(`${sb.baseUrl}/v1/charges?limit=100`, { headers: { authorization: `Bearer ${sb.testKey}` } })
          expect(r.status).toBeLessThan(500)
          await sb.clock.advance('48h')
        } finally {
          await sb.close()
        }
      }),
      { numRuns: 40, seed: 29 },
    )
  }, 60_000)
})

describe("the sandbox's log (issue 29 item 9)", () => {
  it('shows control characters as visible escapes and cuts a line past MAX_LOG_LINE, saying how much', async () => {
    const { safeLog, MAX_LOG_LINE } = await import('../../../../src/lib/sandbox/sandbox.js')
    const lines: string[] = []
    const log = safeLog((l) => lines.push(l))
    log('seeded from a state exported at \u001b]0;owned\u0007\u001b[2J')
    log('x'.repeat(MAX_LOG_LINE + 5000))
    expect(lines[0]).toBe('seeded from a state exported at \\x1b]0;owned\\x07\\x1b[2J')
    expect(lines[1]).toHaveLength(MAX_LOG_LINE + '… (5000 more characters)'.length)
    expect(lines[1]!.endsWith('… (5000 more characters)')).toBe(true)
  })

  it('a seeded start logs its exportedAt and clock through it', async () => {
    const lines: string[] = []
    const s = await startSandbox({ seed: good, port: 0, log: (l) => lines.push(l) })
    await s.close()
    expect(lines).toContain(`sandbox seeded from a state exported at ${good.exportedAt}; its clock starts at ${good.clock.now}`)
  })
})
