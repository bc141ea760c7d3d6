import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { painter } from '../../../src/lib/output/color.js'
import { nextSteps, type StartedSandbox } from '../../../src/lib/services/sandbox-start.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { ROOT } from '../../helpers/run-command.js'

const sandbox = {
  baseUrl: 'http://127.0.0.1:41234',
  testKey: 'svc_test_4f9c2a7be1d04c6f8a3b5e7d9c1f2a4b',
  liveKey: 'svc_live_9a8b7c6d5e4f30211f2e3d4c5b6a7988',
  webhookSecret: 'whsec_5b1e0c9d8a7f6e5d4c3b2a1908f7e6d5',
} as RunningSandbox
const plain = painter(false)
const commands = (text: string) => text.split('\n').filter((l) => l.startsWith('  svc '))

describe('the next steps after `svc sandbox start`', () => {
  it('--no-profile: the first line exports the test key and secret the banner shows, ready to paste; every command carries --base-url of this sandbox', () => {
    const text = nextSteps({ sandbox, profiles: { written: false, madeDefault: false } }, plain)
    const lines = commands(text)
    expect(lines.length).toBeGreaterThanOrEqual(5)
    for (const line of lines) expect(line).toContain(`--base-url ${sandbox.baseUrl}`)
    // Not "export SVC_API_KEY=<test key>": the user would copy the key from the banner by hand (issue 29 item 25).
    expect(text).toContain(`  export SVC_API_KEY=${sandbox.testKey} SVC_WEBHOOK_SECRET=${sandbox.webhookSecret}\n`)
    expect(text).not.toContain('<test key>')
    expect(text).not.toContain(sandbox.liveKey)
    expect(text).not.toContain('--profile')
  })

  it('with the profiles written: --profile sandbox unless sandbox became the default', () => {
    const notDefault = commands(nextSteps({ sandbox, profiles: { written: true, madeDefault: false } }, plain))
    expect(notDefault[0]).toBe('  svc charges create --amount 1500 --profile sandbox')
    const asDefault = commands(nextSteps({ sandbox, profiles: { written: true, madeDefault: true } } as StartedSandbox, plain))
    expect(asDefault[0]).toBe('  svc charges create --amount 1500')
    expect(asDefault.join('\n')).not.toContain('--base-url')
  })
})

it('sandbox help examples use realistic ids: 24-hex charge ids, evt_ + 24 hex event ids', async () => {
  const dir = join(ROOT, 'src/commands/sandbox')
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))
  expect(files.length).toBeGreaterThan(8)
  for (const file of files) {
    const mod = (await import(join(dir, file))) as { default: { examples?: string[] } }
    const examples = (mod.default.examples ?? []).join('\n')
    expect(examples, relative(ROOT, join(dir, file))).not.toMatch(/\bch_\w+/)
    for (const id of examples.match(/\bevt_\w+/g) ?? []) expect(id).toMatch(/^evt_[0-9a-f]{24}$/)
    for (const m of examples.matchAll(/charges (?:get|cancel) (\S+)/g)) expect(m[1]).toMatch(/^[0-9a-f]{24}$/)
  }
})
