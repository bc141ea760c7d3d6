/**
 * Reading a file the user named in a flag (`--body-file F`, `-d @F`). A path that does not
 * exist, cannot be read or is a directory is the user's mistake, not a bug: exit 2 with the flag,
 * the path and the reason in words, instead of a raw errno and "this is a bug".
 */
import { readFile } from 'node:fs/promises'
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
export async function readInputFile(path: string, opts: { given: string; field: string }): Promise<Buffer> {
  try {
    return await readFile(path)
  } catch (error) {
    const err = error as NodeJS.ErrnoException
    const reason = (err.code && REASONS[err.code]) ?? err.code ?? err.message
    throw new UsageError(`cannot read ${opts.given}: ${reason}`, { field: opts.field })
  }
}
