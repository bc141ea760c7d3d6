/**
 * The event log's own journal (0.5, issue 39.2): where `svc webhooks listen` makes a delivery's
 * record durable before it answers, with one append per event-loop turn instead of a SQLite
 * commit. A commit writes every page the turn's records touched (about 9 for a lone delivery,
 * ~19 `pwrite`s); the journal writes the records themselves, once. The SQLite transaction that
 * holds the same rows stays open and is committed a few milliseconds later with the rows of
 * the turns since, and the journal starts over after each commit (event-store.ts).
 *
 * One file per store, next to the log: `<events.db>-redo-<host>-<pid>-<random>`, mode 0600 (it holds
 * bodies, as the log does). A frame is one record: two 32-bit little-endian lengths, then the
 * row's seq and the values of its INSERT but the body as JSON, then the body's bytes as they
 * are (JSON with the body in base64 cost 9 µs a record here, this 2.4). What a process killed
 * before its commit left in its journal is put into the log by the next store opened on it
 * (`deadJournals`, then EventStore's recovery); a frame cut short by the kill was never
 * answered, and is left out.
 */
import { closeSync, ftruncateSync, openSync, readdirSync, readFileSync, rmSync, writevSync } from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { hashId } from './event-index.js'

/** The values of a delivery's INSERT, in the column order of the log's `insert` statement. */
export type RowValues = [
  receivedAt: string,
  source: string,
  eventId: string | null,
  type: string | null,
  chargeId: string | null,
  attempt: number,
  headers: string,
  body: Uint8Array,
  verification: string,
  verifyReason: string | null,
  verifyMessage: string | null,
  outcome: string,
  answeredStatus: number,
  forwardUrl: string | null,
  forwardStatus: number | null,
  latencyMs: number | null,
  error: string | null,
  responseSnippet: string | null,
  bodySize: number | null,
  route: string | null,
]

/** One record of a journal: the seq the row had in the transaction, and its values. */
export interface JournalEntry {
  seq: number
  values: RowValues
}

const BODY = 7
const HEAD = 8

/** A record's frame, as the parts of one write: its lengths and values, then its body. */
export function journalFrame(seq: number, values: RowValues): Uint8Array[] {
  const body = values[BODY]
  const meta = Buffer.from(JSON.stringify([seq, ...values.slice(0, BODY), null, ...values.slice(BODY + 1)]))
  const head = Buffer.allocUnsafe(HEAD + meta.length)
  head.writeUInt32LE(meta.length, 0)
  head.writeUInt32LE(body.length, 4)
  meta.copy(head, HEAD)
  return [head, body]
}

/** The whole frames of a journal; a last frame cut short (by a kill) is left out, and so is anything after a frame that does not read. */
export function parseJournal(data: Uint8Array): JournalEntry[] {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  const entries: JournalEntry[] = []
  let at = 0
  while (at + HEAD <= buf.length) {
    const metaLength = buf.readUInt32LE(at)
    const bodyLength = buf.readUInt32LE(at + 4)
    const end = at + HEAD + metaLength + bodyLength
    if (end > buf.length) break
    let meta: unknown
    try {
      meta = JSON.parse(buf.toString('utf8', at + HEAD, at + HEAD + metaLength))
    } catch {
      // Not a frame this svc wrote whole: nothing after it can be read either.
      break
    }
    if (!Array.isArray(meta) || typeof meta[0] !== 'number' || meta.length !== 21) break
    const [seq, ...values] = meta as [number, ...unknown[]]
    values[BODY] = new Uint8Array(buf.subarray(at + HEAD + metaLength, end))
    entries.push({ seq, values: values as RowValues })
    at = end
  }
  return entries
}

const NAME = /-redo-([0-9a-f]{8})-(\d+)-[0-9a-f]+$/

/**
 * This host's tag in a journal's name (a hash of its hostname): a pid says whether a process is
 * alive only on the host, or in the container, that ran it. A config dir shared with another
 * container must not have a live listener's journal taken (and removed) as a dead one's.
 */
export function hostTag(host: string = hostname()): string {
  return hashId(host).toString(16).padStart(8, '0')
}

/**
 * The journal's own part of its name: only this process writes journals with its pid, so it
 * need not be unguessable. Not node:crypto: `svc webhooks listen` opens its log before its first
 * frame, and loading crypto there cost 9–14 ms of it.
 */
function suffix(): string {
  return Math.floor(Math.random() * 2 ** 32)
    .toString(16)
    .padStart(8, '0')
}

function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The journals next to a log whose process, on this host, is gone: what they hold may not be in
 * the log. Another host's (or container's) are left to svc there.
 */
export function deadJournals(dbPath: string, alive: (pid: number) => boolean = pidAlive): string[] {
  const prefix = `${basename(dbPath)}-redo-`
  let names: string[]
  try {
    names = readdirSync(dirname(dbPath))
  } catch {
    return []
  }
  const here = hostTag()
  return names
    .filter((n) => {
      const name = n.startsWith(prefix) ? NAME.exec(n) : null
      return name !== null && name[1] === here && !alive(Number(name[2]))
    })
    .map((n) => join(dirname(dbPath), n))
}

/** Reads a journal left by a dead process; an empty list when another store took it first. */
export function readJournal(file: string): JournalEntry[] {
  try {
    return parseJournal(readFileSync(file))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw err
  }
}

export function removeJournal(file: string): void {
  rmSync(file, { force: true })
}

/** This store's journal, created at its first append. */
export class Journal {
  readonly file: string
  private fd?: number
  /** Bytes the journal holds. */
  private size = 0

  constructor(dbPath: string) {
    this.file = `${dbPath}-redo-${hostTag()}-${process.pid}-${suffix()}`
  }

  /**
   * Appends the frames in one write (the append is what a killed process keeps). When it fails
   * (a full disk), what part of it was written is cut off again, so that the frames appended
   * next do not follow half a frame.
   */
  append(frames: Uint8Array[]): void {
    this.fd ??= openSync(this.file, 'a', 0o600)
    const total = frames.reduce((n, f) => n + f.length, 0)
    try {
      let written = writevSync(this.fd, frames)
      // A regular file takes a whole write but for a full disk or a signal; what is left goes after.
      while (written < total) written += writevSync(this.fd, [Buffer.concat(frames).subarray(written)])
    } catch (err) {
      ftruncateSync(this.fd, this.size)
      throw err
    }
    this.size += total
  }

  /** What this journal holds now (after a failed commit, to put its rows in again). */
  read(): JournalEntry[] {
    return this.fd === undefined ? [] : readJournal(this.file)
  }

  /** After a commit: every frame is in the log, and the journal starts over (no write when it is empty: most commits under load). */
  reset(): void {
    if (this.fd === undefined || this.size === 0) return
    ftruncateSync(this.fd, 0)
    this.size = 0
  }

  /** Closes the file; removes it when every frame it held is in the log (else the next store opened on the log puts them there). */
  close(inLog: boolean): void {
    if (this.fd === undefined) return
    closeSync(this.fd)
    this.fd = undefined
    if (inLog) removeJournal(this.file)
  }
}
