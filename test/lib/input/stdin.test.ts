import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { UsageError } from '../../../src/lib/errors.js'
import { readAllStdin, readStdinLines } from '../../../src/lib/input/stdin.js'

describe('stdin', () => {
  it('readStdinLines: trimmed, non-empty lines, CRLF or LF', async () => {
    expect(await readStdinLines(Readable.from(['  a1 \r\n\n', 'b2\n   \nc3']))).toEqual(['a1', 'b2', 'c3'])
  })

  it('readAllStdin with a cap: exit 2 naming what, and stops reading once over it', async () => {
    let pulled = 0
    const endless = new Readable({
      read() {
        pulled++
        this.push(Buffer.alloc(1024))
      },
    })
    const err = await readAllStdin(endless, { bytes: 4096, what: 'The fixture on stdin', field: 'file' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UsageError)
    expect((err as Error).message).toContain('The fixture on stdin is larger than 4 KiB')
    expect(pulled).toBeLessThan(20)
  })
})
