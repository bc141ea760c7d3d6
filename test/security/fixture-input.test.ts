/**
 * Fixture input is bounded (issue 25 item 8): `svc fixtures run - < /dev/zero` grew to 2.7 GB in
 * 10 s, and a 218 MB file was read whole. Now 1 MiB is the cap, as for request bodies: over it,
 * exit 2 with a clear error, having read no further (a device or an endless pipe ends at once).
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, openSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readInputFile } from '../../src/lib/input/input-file.js'
import { readAllStdin } from '../../src/lib/input/stdin.js'
import { BIN, svc } from '../helpers/cli.js'

const MiB = 1024 * 1024
const dir = mkdtempSync(join(tmpdir(), 'svc-fixture-input-'))
const env = { SVC_CONFIG_DIR: dir, SVC_API_KEY: 'svc_test_0123456789abcdef', SVC_BASE_URL: 'http://127.0.0.1:9' }

/** Runs the CLI with stdin from a file or device, as a shell redirection does. */
async function withStdinFrom(path: string, args: string[]): Promise<{ exitCode: number; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env, CI: 'true' }, stdio: [openSync(path, 'r'), 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
  const [code] = (await once(child, 'close')) as [number | null]
  clearTimeout(timer)
  return { exitCode: code ?? -1, stderr }
}

describe('svc fixtures run input cap', () => {
  it('- < /dev/zero exits 2 at once, saying the 1 MiB limit', async () => {
    const r = await withStdinFrom('/dev/zero', ['fixtures', 'run', '-'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('The fixture on stdin is larger than 1 MiB')
  })

  it('a file path to a device, or a file over 1 MiB, exits 2 naming it; 1 MiB exactly is read', async () => {
    const zero = await svc(['fixtures', 'run', '/dev/zero'], { env })
    expect(zero.exitCode).toBe(2)
    expect(zero.stderr).toContain('the fixture /dev/zero is larger than 1 MiB')

    const big = join(dir, 'big.json')
    writeFileSync(big, Buffer.alloc(MiB + 1, ' '))
    const r = await svc(['fixtures', 'run', big], { env })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(`the fixture ${big} is larger than 1 MiB`)

    const exact = join(dir, 'exact.json')
    writeFileSync(exact, Buffer.alloc(MiB, ' '))
    expect(await readInputFile(exact, { given: 'x', field: 'file', maxBytes: MiB })).toHaveLength(MiB)
  })

  it('the readers stop at the cap: an endless stream is not consumed', async () => {
    let pulled = 0
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        pulled++
        yield Buffer.alloc(64 * 1024)
      }
    }
    const { Readable } = await import('node:stream')
    await expect(readAllStdin(Readable.from(endless()), { bytes: MiB, what: 'The fixture on stdin', field: 'file' })).rejects.toMatchObject({ exitCode: 2 })
    expect(pulled).toBeLessThan(40)
  })
})
