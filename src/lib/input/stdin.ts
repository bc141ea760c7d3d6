import type { Readable } from 'node:stream'
import { tooLarge } from './input-file.js'

/**
 * Reads all of stdin as raw bytes. With `max`, stops reading as soon as it has more than
 * `max.bytes` and fails (exit 2) naming `max.what`: `< /dev/zero` ends at once, not out of memory.
 */
export async function readAllStdin(stdin: Readable, max?: { bytes: number; what: string; field: string }): Promise<Buffer> {
  const chunks: Buffer[] = []
  let total = 0
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array)
    chunks.push(bytes)
    total += bytes.length
    // Leaving the loop destroys the stream: nothing more is read.
    if (max && total > max.bytes) throw tooLarge(max.what, max.bytes, max.field)
  }
  return Buffer.concat(chunks)
}

/** Reads non-empty, trimmed lines from stdin (ids for `charges cancel -`). */
export async function readStdinLines(stdin: Readable): Promise<string[]> {
  const text = (await readAllStdin(stdin)).toString('utf8')
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
}
