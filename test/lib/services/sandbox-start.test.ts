import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'
import { ROOT } from '../../helpers/run-command.js'

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
