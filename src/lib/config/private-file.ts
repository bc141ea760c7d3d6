/**
 * Writes a file only its owner may read (0600), whole or not at all: the text goes to a new file
 * created 0600 beside it (never world-readable, not even for an instant), which is then renamed
 * over it, so a reader never sees half a file. fs errors are thrown as they are, for the caller
 * to word.
 *
 * It never replaces something that is not a regular file: a rename would swap a device
 * (`/dev/null`), a FIFO, a socket or a directory for a file holding secrets, and would replace a
 * symlink itself rather than what it points to. Those are refused with a NotARegularFileError
 * before anything is written (checked again just before the rename), and the path is left as it
 * was. Refusing a symlink rather than writing through it is deliberate: following a link someone
 * else planted in a shared directory is how a secret lands where they chose (assertSecretLink,
 * the rule config.json follows too).
 */
import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, lstatSync, openSync, readlinkSync, renameSync, rmSync, type Stats, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'

export type NotRegularKind = 'symlink' | 'directory' | 'fifo' | 'device' | 'socket' | 'other'

/** What is at a path that writePrivateFile refuses to replace. */
export class NotARegularFileError extends Error {
  readonly code = 'ENOTREGULAR'
  constructor(
    readonly path: string,
    readonly kind: NotRegularKind,
  ) {
    super(`${path} is a ${kind === 'other' ? 'special file' : kind}, not a regular file`)
  }
}

function kindOf(st: Stats): NotRegularKind | undefined {
  if (st.isFile()) return undefined
  if (st.isSymbolicLink()) return 'symlink'
  if (st.isDirectory()) return 'directory'
  if (st.isFIFO()) return 'fifo'
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device'
  if (st.isSocket()) return 'socket'
  return 'other'
}

/**
 * A symbolic link a secret is not written through: `target` is where it leads, `dangling` says it
 * leads nowhere (else it leads out of the directory svc may follow links in, or there is none).
 */
export class SecretLinkError extends NotARegularFileError {
  constructor(
    path: string,
    readonly target: string,
    readonly dangling: boolean,
  ) {
    super(path, 'symlink')
  }
}

/**
 * The one symlink rule for every file that holds a secret: it is never written through a link,
 * except a link in `home` (svc's own config dir, 0700, where nobody else can plant one) to a file
 * that exists inside `home`. Throws SecretLinkError for any other link; anything else at `path` is
 * not this rule's business.
 */
export function assertSecretLink(path: string, home?: string): void {
  let link: string
  try {
    if (!lstatSync(path).isSymbolicLink()) return
    link = readlinkSync(path)
  } catch {
    return
  }
  const target = resolve(dirname(path), link)
  const inside = home !== undefined && target.startsWith(`${resolve(home)}/`)
  const exists = existsSync(target)
  if (inside && exists) return
  throw new SecretLinkError(path, target, inside && !exists)
}

/** Throws NotARegularFileError when something other than a regular file is at `path`; nothing there is fine. */
export function assertReplaceable(path: string): void {
  assertSecretLink(path)
  let st: Stats
  try {
    st = lstatSync(path)
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return
    throw err
  }
  const kind = kindOf(st)
  if (kind) throw new NotARegularFileError(path, kind)
}

export function writePrivateFile(path: string, text: string): void {
  assertReplaceable(path)
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`)
  const fd = openSync(tmp, 'wx', 0o600)
  try {
    try {
      writeFileSync(fd, text)
    } finally {
      closeSync(fd)
    }
    assertReplaceable(path)
    renameSync(tmp, path)
  } catch (err) {
    rmSync(tmp, { force: true })
    throw err
  }
}
