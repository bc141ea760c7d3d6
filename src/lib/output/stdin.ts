import type { Readable } from 'node:stream'

/** Reads all of stdin as raw bytes. */
export async function readAllStdin(stdin: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array))
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
