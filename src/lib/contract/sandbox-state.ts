/**
 * The sandbox's state in and out (`svc sandbox export`, `svc sandbox start --seed FILE`): the
 * rows of the sandbox database's own tables, as they are, under a format version. Not a second
 * model of the state: a row here is a row of db.ts's schema, column for column, and a new column
 * there means a new format version here.
 */
import * as z from 'zod'
import { DELIVERY_STATES } from './panel.js'

export const SANDBOX_STATE_FORMAT = 'svc-sandbox-state/1'

const text = z.string()
const int = z.int()
const env = z.enum(['test', 'live'])
const orNull = <T extends z.ZodType>(t: T) => t.nullable()

const MetaRow = z.strictObject({ key: text, value: text })
const ApiKeyRow = z.strictObject({ key: text, environment: env, revoked: int, created_at: text })
const ChargeRow = z.strictObject({
  seq: int,
  id: text,
  environment: env,
  external_id: orNull(text),
  status: text,
  created_ms: int,
  request_hash: text,
  body: text,
})
const IdempotencyRow = z.strictObject({ environment: env, key: text, request_hash: text, charge_id: orNull(text), created_ms: int })
const EventRow = z.strictObject({
  seq: int,
  id: text,
  type: text,
  environment: env,
  created_at: text,
  charge_id: orNull(text),
  body: text,
  resource_key: orNull(text),
  dispatched: int,
})
const EndpointRow = z.strictObject({ environment: env, url: text, active: int, saved_ms: int, deactivated_ms: orNull(int), last_success_ms: orNull(int) })
const DeliveryRow = z.strictObject({
  id: int,
  event_id: text,
  type: text,
  environment: env,
  body: text,
  url: text,
  state: z.enum(DELIVERY_STATES),
  attempts: int,
  retry_index: int,
  last_status: orNull(int),
  last_error: orNull(text),
  last_response: orNull(text),
  next_retry_ms: orNull(int),
  created_ms: int,
  first_attempt_ms: orNull(int),
  check_ms: orNull(int),
  resource_key: orNull(text),
  injected: orNull(text),
})
const AttemptRow = z.strictObject({
  id: int,
  delivery_id: int,
  attempt: int,
  at_ms: int,
  url: text,
  status: orNull(int),
  error: orNull(text),
  response: orNull(text),
  duration_ms: int,
  manual: int,
  injected: orNull(text),
})
const WithdrawalRow = z.strictObject({ seq: int, id: text, environment: env, status: text, outcome: text, due_ms: orNull(int), body: text })
const ProductSaleRow = z.strictObject({ seq: int, id: text, body: text })

/** The tables, in the order they are written back (a delivery's attempts after it). */
export const SANDBOX_STATE_TABLES = {
  meta: MetaRow,
  api_keys: ApiKeyRow,
  charges: ChargeRow,
  idempotency: IdempotencyRow,
  events: EventRow,
  webhook_endpoints: EndpointRow,
  webhook_deliveries: DeliveryRow,
  webhook_attempts: AttemptRow,
  withdrawals: WithdrawalRow,
  product_sales: ProductSaleRow,
} as const

export type SandboxStateTable = keyof typeof SANDBOX_STATE_TABLES

/** Each table as a list of its rows, for the format's `tables`. */
const tableArrays = Object.fromEntries(Object.entries(SANDBOX_STATE_TABLES).map(([name, row]) => [name, z.array(row)])) as {
  [T in SandboxStateTable]: z.ZodArray<(typeof SANDBOX_STATE_TABLES)[T]>
}

export const SandboxStateSchema = z.strictObject({
  format: z.literal(SANDBOX_STATE_FORMAT),
  /** Wall-clock instant of the export. */
  exportedAt: text,
  /** The sandbox clock at the export: a sandbox seeded from it starts there. */
  clock: z.strictObject({ now: text.refine((s) => Number.isFinite(Date.parse(s)), 'must be an ISO 8601 instant') }),
  tables: z.strictObject(tableArrays),
})

export type SandboxState = z.infer<typeof SandboxStateSchema>
