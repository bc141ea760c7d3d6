/**
 * Reading a file the user named in a flag (`--body-file F`, `-d @F`). A path that does not
 * exist, cannot be read or is a directory is the user's mistake, not a bug: exit 2 with the flag,
 * the path and the reason in words, instead of a raw errno and "this is a bug".
 */
import { open, readFile } from 'node:fs/promises'
import { UsageError } from '../errors.js'

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
}

/**
 * The bytes of `path`. `given` is how the user wrote it (`--body-file body.json`, `-d @body.json`),
 * `field` the flag's name for --json errors.
 */
export async function readInputFile(path: string, opts: { given: string; field: string; maxBytes?: number }): Promise<Buffer> {
  try {
    return opts.maxBytes === undefined ? await readFile(path) : await readCapped(path, opts.maxBytes, opts)
  } catch (error) {
    if (error instanceof UsageError) throw error
    const err = error as NodeJS.ErrnoException
    const reason = (err.code && REASONS[err.code]) ?? err.code ?? err.message
    throw new UsageError(`cannot read ${opts.given}: ${reason}`, { field: opts.field })
  }
}

/** `what` is over `maxBytes`: exit 2, saying the limit (the input was not read further). */
export function tooLarge(what: string, maxBytes: number, field: string): UsageError {
  return new UsageError(`${what} is larger than ${formatBytes(maxBytes)}; svc read no further.`, { field, hint: `Keep it under ${formatBytes(maxBytes)}.` })
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} MiB` : n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`
}

/** Reads at most maxBytes + 1 bytes (a device such as /dev/zero, or a FIFO, has no size to check first). */
async function readCapped(path: string, maxBytes: number, opts: { given: string; field: string }): Promise<Buffer> {
  const handle = await open(path, 'r')
  try {
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total))
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null)
      if (bytesRead === 0) return Buffer.concat(chunks, total)
      chunks.push(chunk.subarray(0, bytesRead))
      total += bytesRead
      if (total > maxBytes) throw tooLarge(opts.given, maxBytes, opts.field)
    }
  } finally {
    await handle.close()
  }
}
