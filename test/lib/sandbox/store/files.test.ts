import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DB_FILE, hasSandboxData } from '../../../../src/lib/sandbox/store/files.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('whether a data dir holds a sandbox', () => {
  it('is true once its database file is there, and false for an empty or missing dir', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-files-'))
    dirs.push(dir)
    expect(hasSandboxData(dir)).toBe(false)
    expect(hasSandboxData(join(dir, 'nope'))).toBe(false)
    writeFileSync(join(dir, DB_FILE), '')
    expect(hasSandboxData(dir)).toBe(true)
  })
})
