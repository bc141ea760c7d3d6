/**
 * The relay's PostgreSQL schema, versioned: `svc relay migrate --store URL` applies the
 * migrations below in order (each once, recorded in `svc_relay_schema_version`), and
 * `svc relay serve --store URL` refuses to start on a schema that is missing, older or newer
 * than this build knows, naming the command that fixes it. Tables live in the connection's
 * search_path (the `public` schema unless the URL's `options=-c search_path=…` says otherwise),
 * so one database can hold several relays.
 *
 * Migrations are only ever appended: a released one is never edited, a change is a new entry.
 */

/** What the schema code needs of a pg client or pool. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>
}

export interface Migration {
  version: number
  description: string
  sql: string
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'channels, hashed tokens, deliveries, acks, sends, stream leases',
    sql: `
      CREATE TABLE relay_channels (
        name text PRIMARY KEY,
        secrets jsonb NOT NULL,
        created_at text NOT NULL,
        retention_ms bigint,
        max_bytes bigint
      );
      -- One row: the last sequence number given. Its row lock, held by the ingest transaction
      -- until it commits, orders commits by seq (see postgres.ts, "Sequence numbers").
      CREATE TABLE relay_seq (
        id smallint PRIMARY KEY CHECK (id = 1),
        last bigint NOT NULL
      );
      INSERT INTO relay_seq (id, last) VALUES (1, 0);
      CREATE TABLE relay_tokens (
        name text PRIMARY KEY,
        channel text NOT NULL,
        hash text NOT NULL UNIQUE,
        only_types jsonb NOT NULL,
        match_rules jsonb NOT NULL,
        created_at text NOT NULL,
        start_seq bigint NOT NULL,
        -- The durable cursor: every seq up to here is acked (or not this token's); acks above it are rows.
        ack_floor bigint NOT NULL,
        revoked_at text,
        connected_at text,
        last_ack_at text,
        untold_lost bigint NOT NULL DEFAULT 0,
        gap_from bigint,
        gap_to bigint,
        gap_reason text
      );
      CREATE TABLE relay_deliveries (
        seq bigint PRIMARY KEY,
        channel text NOT NULL,
        event_id text,
        event_type text,
        arrived_at text NOT NULL,
        arrived timestamptz NOT NULL,
        headers jsonb NOT NULL,
        body bytea NOT NULL,
        bytes integer NOT NULL
      );
      CREATE INDEX relay_deliveries_channel_seq ON relay_deliveries (channel, seq);
      CREATE INDEX relay_deliveries_arrived ON relay_deliveries (arrived);
      CREATE TABLE relay_acks (
        token text NOT NULL,
        seq bigint NOT NULL,
        PRIMARY KEY (token, seq)
      );
      CREATE TABLE relay_sends (
        token text NOT NULL,
        seq bigint NOT NULL,
        sends integer NOT NULL,
        PRIMARY KEY (token, seq)
      );
      -- One stream per token across instances: who streams it, and which claim that was.
      CREATE TABLE relay_stream_leases (
        token text PRIMARY KEY,
        instance text NOT NULL,
        generation bigint NOT NULL,
        expires_at timestamptz NOT NULL
      );
    `,
  },
]

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version

/** The schema is not the one this build serves: the message names what to run. Exit 2 at the command. */
export class RelaySchemaError extends Error {
  constructor(
    message: string,
    readonly found: number | undefined,
  ) {
    super(message)
    this.name = 'RelaySchemaError'
  }
}

// Serialises two `migrate` runs against one database (two instances deployed at once).
const MIGRATE_LOCK = 'hashtext($1)::bigint'

async function currentVersion(db: Queryable): Promise<number | undefined> {
  const exists = await db.query(`SELECT to_regclass('svc_relay_schema_version') IS NOT NULL AS present`)
  if (!exists.rows[0]?.present) return undefined
  const res = await db.query('SELECT max(version) AS version FROM svc_relay_schema_version')
  const v = res.rows[0]?.version
  return v === null || v === undefined ? undefined : Number(v)
}

export interface MigrateResult {
  from: number | undefined
  to: number
  applied: number[]
}

/** Applies every migration newer than the database's, in one transaction. Refuses a newer schema. */
export async function migrate(db: Queryable): Promise<MigrateResult> {
  await db.query('BEGIN')
  try {
    await db.query(`SELECT pg_advisory_xact_lock(${MIGRATE_LOCK})`, ['svc_relay_migrate'])
    await db.query('CREATE TABLE IF NOT EXISTS svc_relay_schema_version (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())')
    const from = await currentVersion(db)
    if (from !== undefined && from > LATEST_SCHEMA_VERSION) {
      throw new RelaySchemaError(`The relay's schema is at version ${from}, newer than this svc knows (${LATEST_SCHEMA_VERSION}): upgrade svc; migrate never downgrades.`, from)
    }
    const applied: number[] = []
    for (const m of MIGRATIONS) {
      if (from !== undefined && m.version <= from) continue
      await db.query(m.sql)
      await db.query('INSERT INTO svc_relay_schema_version (version, description) VALUES ($1, $2)', [m.version, m.description])
      applied.push(m.version)
    }
    await db.query('COMMIT')
    return { from, to: LATEST_SCHEMA_VERSION, applied }
  } catch (err) {
    await db.query('ROLLBACK').catch(() => {})
    throw err
  }
}

/** Throws RelaySchemaError unless the schema is exactly the version this build serves. */
export async function checkSchema(db: Queryable): Promise<number> {
  const found = await currentVersion(db)
  if (found === undefined) {
    throw new RelaySchemaError('The relay store has no schema yet: run `svc relay migrate --store URL` first (with the same URL).', undefined)
  }
  if (found > LATEST_SCHEMA_VERSION) {
    throw new RelaySchemaError(`The relay store's schema is at version ${found}, newer than this svc knows (${LATEST_SCHEMA_VERSION}): another relay was upgraded; upgrade svc on this host too.`, found)
  }
  if (found < LATEST_SCHEMA_VERSION) {
    throw new RelaySchemaError(`The relay store's schema is at version ${found}, this svc needs ${LATEST_SCHEMA_VERSION}: run \`svc relay migrate --store URL\`.`, found)
  }
  return found
}
