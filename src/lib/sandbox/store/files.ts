/** Where a sandbox keeps its data: named here alone, and cheap to import (no database, no server). */
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** The database file inside a sandbox's data dir. */
export const DB_FILE = 'sandbox.db'

/** Whether a data dir holds a sandbox's database. */
export function hasSandboxData(dataDir: string): boolean {
  return existsSync(join(dataDir, DB_FILE))
}
