/**
 * The sandbox's whole state out (`GET /_sandbox/export`) and back in (`--seed FILE`,
 * `startSandbox({ seed })`): the rows of the database's own tables under the versioned format of
 * contract/sandbox-state.ts, read and written as they are — the same ids, keys, webhook secret,
 * plan, webhook URLs, events and delivery log. The clock travels as the instant it showed.
 */
import type { DatabaseSync } from 'node:sqlite'
import { SANDBOX_STATE_FORMAT, SANDBOX_STATE_TABLES, type SandboxState, SandboxStateSchema, type SandboxStateTable } from '../../contract/sandbox-state.js'
import { transaction } from '../store/db.js'
import { checkState, fieldOf } from './check.js'
import { SandboxStateError } from './errors.js'

export { SANDBOX_STATE_FORMAT, type SandboxState }

/** Meta rows that are not state but this process's bookkeeping (the clock travels as `clock.now`). */
const NOT_EXPORTED_META = new Set(['clock_lead_ms'])

export { SandboxStateError }

/**
 * The largest state file `--seed` reads: the CLI's panel client refuses an export answer over
 * 16 MiB, so no export is larger; a bigger file is refused before it is read.
 */
export const MAX_SEED_BYTES = 16 * 1024 * 1024

export interface ExportOptions {
  /**
   * Keep the live keys and the webhook secret (which signs live deliveries too). Without it the
   * export holds neither: any key may ask for an export, and a test key must not read a live secret
   * that `/_sandbox/keys` masks. A sandbox seeded from such a state makes new ones (seedState's caller).
   */
  liveSecrets?: boolean
}

/** Every table's rows, oldest first. The caller commits pending writes first. */
export function exportState(db: DatabaseSync, clockNow: number, wallNow = Date.now(), opts: ExportOptions = {}): SandboxState {
  const tables = {} as Record<SandboxStateTable, unknown[]>
  for (const table of Object.keys(SANDBOX_STATE_TABLES) as SandboxStateTable[]) {
    const columns = Object.keys(SANDBOX_STATE_TABLES[table].shape).join(', ')
    let rows = db.prepare(`SELECT ${columns} FROM ${table} ORDER BY rowid`).all() as Array<Record<string, unknown>>
    if (table === 'meta') rows = rows.filter((r) => !NOT_EXPORTED_META.has(r.key as string))
    if (!opts.liveSecrets && table === 'api_keys') rows = rows.filter((r) => r.environment !== 'live')
    if (!opts.liveSecrets && table === 'meta') rows = rows.map((r) => (r.key === 'merchant' ? { ...r, value: withoutWebhookSecret(r.value as string) } : r))
    tables[table] = rows.map((r) => ({ ...r }))
  }
  return { format: SANDBOX_STATE_FORMAT, exportedAt: new Date(wallNow).toISOString(), clock: { now: new Date(clockNow).toISOString() }, tables } as SandboxState
}

function withoutWebhookSecret(merchant: string): string {
  const { webhookSecret: _, ...rest } = JSON.parse(merchant) as Record<string, unknown>
  return JSON.stringify(rest)
}

/** What a state lacks because it was exported without live secrets: the sandbox seeded from it makes them anew. */
export function missingLiveSecrets(state: SandboxState): Array<'live key' | 'webhook secret'> {
  const missing: Array<'live key' | 'webhook secret'> = []
  if (!state.tables.api_keys.some((k) => k.environment === 'live' && k.revoked === 0)) missing.push('live key')
  const merchant = state.tables.meta.find((m) => m.key === 'merchant')
  if (merchant && (JSON.parse(merchant.value) as { webhookSecret?: unknown }).webhookSecret === undefined) missing.push('webhook secret')
  return missing
}

/**
 * Checks a state read from a file or given as an object: its format version first (another one
 * is refused, saying which was found), then every row against the tables' columns, then what the
 * sandbox relies on (check.ts: ids, states and their fields, fees, references, the clock).
 */
export function parseState(value: unknown): SandboxState {
  const format = (value as { format?: unknown } | null)?.format
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new SandboxStateError('the state must be a JSON object exported by `svc sandbox export`', '(state)')
  if (format !== SANDBOX_STATE_FORMAT) {
    const found = format === undefined ? 'no format field' : `format ${JSON.stringify(format)}`
    throw new SandboxStateError(`unsupported sandbox state: found ${found}; this svc supports ${SANDBOX_STATE_FORMAT} (export it again with this version's \`svc sandbox export\`)`, 'format')
  }
  const result = SandboxStateSchema.safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]!
    const field = pathOf(issue.path)
    throw new SandboxStateError(`invalid sandbox state at ${field}: ${issue.message}`, field)
  }
  checkState(result.data)
  return result.data
}

/** A zod path as check.ts names fields: `tables.charges[0].seq`. */
function pathOf(path: readonly PropertyKey[]): string {
  if (path.length >= 3 && path[0] === 'tables' && typeof path[2] === 'number') return fieldOf(String(path[1]), path[2], ...path.slice(3).map((p) => (typeof p === 'number' ? p : String(p))))
  return path.map(String).join('.') || '(state)'
}

/** Whether the database holds a sandbox already (a merchant, or any data). */
export function hasState(db: DatabaseSync): boolean {
  const row = db.prepare("SELECT (SELECT COUNT(*) FROM meta WHERE key = 'merchant') + (SELECT COUNT(*) FROM api_keys) + (SELECT COUNT(*) FROM charges) + (SELECT COUNT(*) FROM events) AS n").get() as { n: number }
  return row.n > 0
}

/** Writes a state into an empty database, in one transaction. */
export function seedState(db: DatabaseSync, state: SandboxState): void {
  transaction(db, () => {
    for (const table of Object.keys(SANDBOX_STATE_TABLES) as SandboxStateTable[]) {
      const columns = Object.keys(SANDBOX_STATE_TABLES[table].shape)
      const insert = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
      for (const row of state.tables[table] as Array<Record<string, string | number | null>>) {
        try {
          insert.run(...columns.map((c) => row[c] ?? null))
        } catch (err) {
          throw new SandboxStateError(`the state's ${table} rows do not fit together: ${err instanceof Error ? err.message : String(err)}`, `tables.${table}`)
        }
      }
    }
  })
}

/** Empties what seedState wrote (a start that failed after seeding puts the database back as it was). */
export function unseedState(db: DatabaseSync): void {
  transaction(db, () => {
    for (const table of (Object.keys(SANDBOX_STATE_TABLES) as SandboxStateTable[]).reverse()) db.exec(`DELETE FROM ${table}`)
    db.exec("DELETE FROM sqlite_sequence WHERE name IN ('charges', 'events', 'webhook_deliveries', 'webhook_attempts', 'withdrawals', 'product_sales')")
  })
}

/** `dir/bad.json` → `dir/bad.export.json`: a name beside `path` that is not `path`. */
function freshName(path: string): string {
  const dot = path.lastIndexOf('.')
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'))
  return dot > slash + 1 ? `${path.slice(0, dot)}.export${path.slice(dot)}` : `${path}.export.json`
}

/** Reads and checks a state file written by `svc sandbox export`: a regular file of at most MAX_SEED_BYTES. */
export async function readStateFile(path: string): Promise<SandboxState> {
  const { open } = await import('node:fs/promises')
  const { constants } = await import('node:fs')
  let text: string
  try {
    // Opened without blocking (a FIFO would wait for a writer), then checked through the same
    // descriptor before a byte is read: a FIFO, a device or a directory is refused by what it is.
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
    try {
      const st = await handle.stat()
      if (!st.isFile()) {
        const what = st.isFIFO() ? 'a FIFO' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isDirectory() ? 'a directory' : st.isSocket() ? 'a socket' : 'not a regular file'
        throw new SandboxStateError(`the state file ${path} is ${what}: give a file written by \`svc sandbox export -o FILE\``, 'seed')
      }
      if (st.size > MAX_SEED_BYTES) {
        throw new SandboxStateError(`the state file ${path} has ${st.size} bytes; a state holds at most ${MAX_SEED_BYTES} (16 MiB, the most \`svc sandbox export\` writes)`, 'seed')
      }
      const bytes = Buffer.alloc(st.size)
      let read = 0
      while (read < st.size) {
        const { bytesRead } = await handle.read(bytes, read, st.size - read, read)
        if (bytesRead === 0) break
        read += bytesRead
      }
      text = bytes.subarray(0, read).toString('utf8')
    } finally {
      await handle.close()
    }
  } catch (err) {
    if (err instanceof SandboxStateError) throw err
    throw new SandboxStateError(`cannot read the state file ${path}: ${(err as { code?: string }).code ?? String(err)}`, 'seed')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // Suggest a new file: exporting over this one would overwrite whatever the user keeps in it.
    throw new SandboxStateError(`the state file ${path} is not JSON: export a running sandbox's state into a new file with \`svc sandbox export -o ${freshName(path)}\``, 'seed')
  }
  return parseState(value)
}

/** A state given as a file path or as the exported object (the library's `seed` option). */
export async function loadState(seed: string | object): Promise<SandboxState> {
  return typeof seed === 'string' ? readStateFile(seed) : parseState(seed)
}
