/**
 * Fills a stopped sandbox's database with charges, straight into sqlite: one real charge made
 * through the API is the template (a settled charge, so no timers re-arm on restart), and each
 * copy gets its own id (the sandbox's id scheme), timestamps and BR Code. 100 000 rows take
 * seconds this way instead of a minute through the API.
 */
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { brCodeFor, qrImagePath } from '../../dist/lib/sandbox/engine/brcode.js'
import { DB_FILE } from '../../dist/lib/sandbox/store/db.js'
import { chargeId } from '../../dist/lib/sandbox/store/ids.js'

/** Adds `count` copies of the charge `templateId`, `spacingMs` apart after it (default 1 ms); returns the newest createdMs. */
export function seedCharges(dataDir, templateId, count, spacingMs = 1) {
  const db = new DatabaseSync(join(dataDir, DB_FILE))
  try {
    const row = db.prepare('SELECT * FROM charges WHERE id = ?').get(templateId)
    if (!row) throw new Error(`template charge ${templateId} not found in ${dataDir}`)
    const template = JSON.parse(row.body)
    const insert = db.prepare('INSERT INTO charges (seq, id, environment, external_id, status, created_ms, request_hash, body) VALUES (?, ?, ?, NULL, ?, ?, ?, ?)')
    const firstSeq = Number(db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'charges'").get().seq) + 1
    const baseMs = Number(row.created_ms)
    const offsets = timeOffsets(template)
    db.exec('BEGIN')
    for (let i = 0; i < count; i++) {
      const createdMs = baseMs + (1 + i) * spacingMs
      const seq = firstSeq + i
      const id = chargeId(createdMs, seq)
      const charge = structuredClone(template)
      charge.id = id
      charge.pix.qrCode = brCodeFor(id)
      if (charge.pix.qrCodeImageUrl) charge.pix.qrCodeImageUrl = charge.pix.qrCodeImageUrl.replace(/\/qr\/[^/]+\.png$/, qrImagePath(id))
      for (const [path, delta] of offsets) setIn(charge, path, new Date(createdMs + delta).toISOString())
      insert.run(seq, id, row.environment, charge.status, createdMs, `${row.request_hash}-${i}`, JSON.stringify(charge))
    }
    db.exec('COMMIT')
    return baseMs + count * spacingMs
  } finally {
    db.close()
  }
}

/** Every timestamp of the template as an offset from its createdAt, so copies keep the same shape. */
function timeOffsets(charge) {
  const created = Date.parse(charge.createdAt)
  const out = []
  const walk = (value, path) => {
    if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value)) out.push([path, Date.parse(value) - created])
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k])
  }
  walk(charge, [])
  return out
}

function setIn(obj, path, value) {
  let cur = obj
  for (const k of path.slice(0, -1)) cur = cur[k]
  cur[path.at(-1)] = value
}
