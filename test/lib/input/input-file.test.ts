import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { UsageError } from '../../../src/lib/errors.js'
import { readInputFile } from '../../../src/lib/input/input-file.js'

const dir = mkdtempSync(join(tmpdir(), 'svc-input-file-'))

describe('readInputFile', () => {
  it('reads the bytes of a file, up to the cap inclusive', async () => {
    const file = join(dir, 'body.json')
    writeFileSync(file, '{"a":1}')
    expect((await readInputFile(file, { given: '--body-file body.json', field: 'body-file' })).toString()).toBe('{"a":1}')
    expect((await readInputFile(file, { given: '--body-file body.json', field: 'body-file', maxBytes: 7 })).toString()).toBe('{"a":1}')
  })

  it('a missing path or a directory is the user mistake (exit 2), naming how they wrote it and the reason', async () => {
    const missing = readInputFile(join(dir, 'nope.json'), { given: '-d @nope.json', field: 'data' })
    await expect(missing).rejects.toBeInstanceOf(UsageError)
    await expect(missing).rejects.toThrow('cannot read -d @nope.json: no such file')
    await expect(readInputFile(dir, { given: '--body-file .', field: 'body-file' })).rejects.toThrow('it is a directory, not a file')
  })

  it('over the cap: exit 2 saying the limit, having read no further', async () => {
    const file = join(dir, 'big.json')
    writeFileSync(file, 'x'.repeat(2049))
    const err = await readInputFile(file, { given: 'big.json', field: 'body-file', maxBytes: 2048 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UsageError)
    expect((err as Error).message).toBe('big.json is larger than 2 KiB; svc read no further.')
  })
})
