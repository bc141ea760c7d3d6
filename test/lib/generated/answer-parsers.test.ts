/**
 * src/lib/generated/answer-parsers.ts: zod's compiled parsers of the API's answers, written out so
 * the client decodes a valid answer without loading zod. They must stay generated from the
 * current schemas, and agree with zod on every JSON value: the same output (key order included)
 * when zod accepts, undefined when it refuses.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as core from 'zod/v4/core'
import type { z } from 'zod'
import { ANSWERS, generateAnswerParsers, OUTPUT } from '../../../packaging/gen-answer-parsers.js'
import * as parsers from '../../../src/lib/generated/answer-parsers.js'
import * as schemaModule from '../../../src/lib/contract/schemas.js'
import * as withdrawalModule from '../../../src/lib/contract/withdrawals.js'
import { account, errorBody } from '../../helpers/api-fixtures.js'

const modules: Record<string, Record<string, unknown>> = { schemas: schemaModule, withdrawals: withdrawalModule }
const schemaOf = (name: string) => {
  const [module, schemaName] = ANSWERS[name as keyof typeof ANSWERS]
  return modules[module]![schemaName] as z.ZodType
}
const parserOf = (name: string) => (parsers as unknown as Record<string, (input: unknown) => unknown>)[name]!

const charge = {
  id: '0123456789abcdef01234567',
  externalId: 'order-1',
  status: 'paid_pending_settlement',
  environment: 'test',
  amount: { grossInCents: 1500, feeBps: 199, feeFixedInCents: 50, feeInCents: 80, netInCents: 1420 },
  pix: { qrCode: '000201…6304ABCD', expiresAt: '2026-11-22T04:30:01.304Z' },
  settlement: { delayHours: 24, paidAt: '2026-11-22T03:31:00.000Z', estimatedAt: '2026-11-23T03:31:00-03:00' },
  payer: { taxNumber: '***.982.247-**', name: 'Ana' },
  metadata: { order: '42' },
  split: { status: 'pending', destinations: [{ wallet: 'x', bps: 5000 }] },
  createdAt: '2026-11-22T03:30:01.304Z',
  updatedAt: '2026-11-22T03:31:00Z',
}

/** A valid answer for each parser, to mutate. */
const SEEDS: Record<string, unknown[]> = {
  parseCharge: [charge, { ...charge, externalId: undefined, metadata: undefined, split: undefined, description: 'café ☕' }],
  parseChargeList: [
    { data: [charge, { ...charge, id: 'fedcba9876543210fedcba98' }], hasMore: true },
    { data: [], hasMore: false },
  ],
  parseAccount: [account(), account({ environment: 'live', webhook: undefined })],
  parseWebhookTestResponse: [{ eventId: 'evt_1' }, { eventId: '😀' }],
  parseErrorBody: [errorBody('invalid_request', 'bad'), errorBody('invalid_request', 'bad', { details: [{ field: 'amountInCents', message: 'too small' }] })],
  parseWithdrawal: [
    { id: '0123456789abcdef01234567', status: 'paid', environment: 'test', amountInCents: 900, pix: { key: 'k', endToEndId: 'E1' }, createdAt: '2026-11-22T03:30:01.304Z', updatedAt: '2026-11-22T03:30:31Z' },
  ],
}

/** Values that sit on the edges of what the schemas accept. */
const TRICKY: unknown[] = [
  null,
  true,
  0,
  -0,
  1.5,
  2 ** 53,
  -1,
  '',
  'x',
  '2024-02-29T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2026-11-22T24:00:00Z',
  '2026-11-22T03:30:01.304+0300',
  '\ud800',
  '😀'.repeat(3),
  [],
  {},
  [1],
  'paid',
  'test',
  'live',
  'canceled',
  '0123456789ABCDEF01234567',
]

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Mutation = { path: number[]; op: 'delete' | 'set' | 'add' | 'reorder' | 'proto'; value: unknown; key: string }

/** Applies one mutation at the node reached by following `path` (indexes into each node's keys). */
function mutate(root: Json, m: Mutation): Json {
  const copy = structuredClone(root)
  let parent: Json = copy
  let node: Json = copy
  let key: string | number | undefined
  for (const step of m.path) {
    if (node === null || typeof node !== 'object') break
    const keys = Object.keys(node)
    if (keys.length === 0) break
    parent = node
    key = keys[step % keys.length]!
    node = (node as Record<string, Json>)[key]!
  }
  const target = node !== null && typeof node === 'object' ? node : parent
  if (m.op === 'set' && key !== undefined) (parent as Record<string, unknown>)[key] = m.value
  else if (m.op === 'delete' && key !== undefined && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[key]
  else if (m.op === 'add' && target !== null && typeof target === 'object' && !Array.isArray(target)) (target as Record<string, unknown>)[m.key] = m.value
  else if (m.op === 'reorder' && target !== null && typeof target === 'object' && !Array.isArray(target)) {
    const entries = Object.entries(target).reverse()
    for (const k of Object.keys(target)) delete (target as Record<string, unknown>)[k]
    for (const [k, v] of entries) (target as Record<string, unknown>)[k] = v
  }
  // The JSON parser makes "__proto__" an own key, which an object literal cannot.
  if (m.op === 'proto')
    return JSON.parse(
      JSON.stringify(copy)
        .replace(/^\{/, '{"__proto__":{"x":1},')
        .replace(/^\{"__proto__":\{"x":1\},\}$/, '{"__proto__":{"x":1}}'),
    ) as Json
  return JSON.parse(JSON.stringify(copy)) as Json
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  path: fc.array(fc.nat({ max: 20 }), { maxLength: 4 }),
  op: fc.constantFrom('delete', 'set', 'set', 'add', 'reorder', 'proto'),
  value: fc.oneof(fc.constantFrom(...TRICKY), fc.jsonValue({ maxDepth: 2 })),
  key: fc.constantFrom('extra', 'id', 'status', '__proto__', 'constructor', 'data'),
})

describe('answer parsers', () => {
  it('are generated from the current schemas (else run `npm run gen:answers`)', () => {
    const schemas = Object.fromEntries(Object.keys(ANSWERS).map((name) => [name, schemaOf(name)]))
    const fresh = generateAnswerParsers(schemas, core)
    expect(readFileSync(OUTPUT, 'utf8') === fresh, 'src/lib/generated/answer-parsers.ts is out of date: run `npm run gen:answers`').toBe(true)
  })

  it('accept every seed as zod does, with the same output and key order', () => {
    for (const [name, seeds] of Object.entries(SEEDS)) {
      for (const seed of seeds) {
        const input = JSON.parse(JSON.stringify(seed)) as unknown
        const fast = parserOf(name)(input)
        expect(fast, `${name} refused a valid seed`).toBeDefined()
        expect(JSON.stringify(fast)).toBe(JSON.stringify(schemaOf(name).parse(input)))
      }
    }
  })

  it('agree with zod on mutated answers: same output when it accepts, undefined when it refuses', () => {
    for (const [name, seeds] of Object.entries(SEEDS)) {
      fc.assert(
        fc.property(fc.constantFrom(...seeds), fc.array(mutation, { minLength: 1, maxLength: 3 }), (seed, mutations) => {
          const input = mutations.reduce((json, m) => mutate(json, m), JSON.parse(JSON.stringify(seed)) as Json)
          const zod = schemaOf(name).safeParse(input)
          const fast = parserOf(name)(input)
          if (!zod.success) return fast === undefined
          return fast !== undefined && JSON.stringify(fast) === JSON.stringify(zod.data) && Object.keys(fast as object).join() === Object.keys(zod.data as object).join()
        }),
        { numRuns: 400, seed: 14 },
      )
    }
  })

  it('agree with zod on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(ANSWERS)), fc.jsonValue({ maxDepth: 3 }), (name, input) => {
        const zod = schemaOf(name).safeParse(input)
        const fast = parserOf(name)(input)
        return zod.success ? JSON.stringify(fast) === JSON.stringify(zod.data) : fast === undefined
      }),
      { numRuns: 500, seed: 14 },
    )
  })

  it('let the built client decode a valid charge without loading zod', () => {
    // A child process with a resolve hook that records every module the client loads (dist/, as shipped).
    const script = `
      import { registerHooks } from 'node:module'
      import { createServer } from 'node:http'
      const seen = []
      registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r } })
      const body = process.argv[1]
      const server = createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body) })
      await new Promise((r) => server.listen(0, '127.0.0.1', r))
      const { createClient } = await import(${JSON.stringify(new URL('../../../dist/lib/api/client.js', import.meta.url).href)})
      const client = createClient({ apiKey: 'svc_test_x', baseUrl: 'http://127.0.0.1:' + server.address().port })
      const got = await client.getCharge('0123456789abcdef01234567')
      await client.close(); server.close()
      process.stdout.write(JSON.stringify({ id: got.id, zod: seen.filter((u) => u.includes('/node_modules/zod/')).length }))
    `
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(charge)], { encoding: 'utf8', cwd: fileURLToPath(new URL('../../..', import.meta.url)) })
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual({ id: charge.id, zod: 0 })
  })
})
