/**
 * Overrides cannot reach Object.prototype (issue 25 item 7). A fixture's trigger override
 * `{"__proto__.polluted": "yes"}`, or `svc trigger … --override __proto__.polluted=cli`, used to
 * set `Object.prototype.polluted`, which a later `${t.polluted}` then read. A path through
 * `__proto__`, `constructor` or `prototype` is refused (exit 2, naming it), and a reference reads
 * a step's own fields only.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXIT } from '../../src/lib/errors.js'
import { applyOverride, parseOverride, resolveRefs } from '../../src/lib/scenarios/fixture.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { svc } from '../helpers/cli.js'

const polluted = () => ({}) as Record<string, unknown>

describe('override paths', () => {
  it.each(['__proto__.polluted', 'metadata.__proto__.polluted', 'constructor.prototype.polluted', 'prototype', 'a.constructor'])('%s=x is refused (exit 2) naming the path', (path) => {
    let err: unknown
    try {
      parseOverride(`${path}=x`)
    } catch (e) {
      err = e
    }
    expect(err).toMatchObject({ exitCode: EXIT.usage, code: 'invalid_override' })
    expect((err as Error).message).toContain(path)
    expect(polluted().polluted).toBeUndefined()
  })

  it("a trigger step's override (no parseOverride on its way) is refused too, and nothing is polluted", () => {
    const target: Record<string, unknown> = { amountInCents: 1500 }
    const o = { path: ['__proto__', 'polluted'], value: '"yes"', json: true, text: '__proto__.polluted="yes"' }
    expect(() => applyOverride(target, o, 'step t')).toThrow(/__proto__\.polluted/)
    expect(polluted().polluted).toBeUndefined()
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype)
  })

  it('a reference reads own fields only: ${t.constructor} names a field the answer lacks', () => {
    expect(() => resolveRefs('${t.constructor}', new Map([['t', { id: 'x' }]]), 'step u')).toThrow(/has no field constructor/)
    expect(() => resolveRefs('${t.toString}', new Map([['t', { id: 'x' }]]), 'step u')).toThrow(/has no field toString/)
  })
})

describe('through the CLI', () => {
  let sb: RunningSandbox
  let env: Record<string, string>
  const dir = mkdtempSync(join(tmpdir(), 'svc-pollution-'))
  beforeAll(async () => {
    sb = await startSandboxServer({ port: 0, inMemory: true })
    env = { SVC_CONFIG_DIR: dir, SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl }
  })
  afterAll(() => sb?.close())

  it('svc trigger --override __proto__.polluted=cli exits 2 naming the path, and creates nothing', async () => {
    const r = await svc(['trigger', 'charge.awaiting_payment', '--override', '__proto__.polluted=cli'], { env })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('__proto__.polluted')
    expect((await svc(['charges', 'list', '--json'], { env })).stdout).not.toContain('svc trigger')
  })

  it('svc fixtures run: a trigger step overriding __proto__.polluted exits 2 before the step reads ${t.polluted}', async () => {
    const file = join(dir, 'pollute.json')
    writeFileSync(
      file,
      JSON.stringify({
        steps: [
          { name: 't', trigger: { type: 'charge.awaiting_payment', override: { '__proto__.polluted': 'yes' } } },
          { name: 'u', request: { method: 'POST', path: '/v1/charges', body: { amountInCents: 1500, payerTaxNumber: '529.982.247-25', description: '${t.polluted}' } } },
        ],
      }),
    )
    const r = await svc(['fixtures', 'run', file], { env })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('__proto__.polluted')
  })
})
