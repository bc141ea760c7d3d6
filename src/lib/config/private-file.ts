/**
 * Writes a file only its owner may read (0600), whole or not at all: the text goes to a new file
 * created 0600 beside it (never world-readable, not even for an instant), which is then renamed
 * over it, so a reader never sees half a file. fs errors are thrown as they are, for the caller
 * to word.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

export function writePrivateFile(path: string, text: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`)
  const fd = openSync(tmp, 'wx', 0o600)
  try {
    try {
      writeFileSync(fd, text)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, path)
  } catch (err) {
    rmSync(tmp, { force: true })
    throw err
  }
}
