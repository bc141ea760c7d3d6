/**
 * The spec in code: one zod schema per request, resource, event and error of spec part 2.
 * Requests are strict about the spec's rules (the CLI validates flags with them before any
 * request, the sandbox validates bodies with them); resources are loose objects so that a
 * field the service adds later survives `--json` untouched.
 */
import * as z from 'zod'
import { ADVANCE_TARGETS, CHARGE_STATUSES } from '../domain/charge-states.js'
import { isValidTaxNumber } from '../domain/tax-number.js'
import { rfc3339Millis } from '../domain/time.js'
import { LIMITS } from './limits.js'

const dateTime = z.iso.datetime({ offset: true })
/**
 * A date-time the client sends (spec 4.2's `createdAfter`/`createdBefore`): whatever RFC 3339
 * accepts, lower-case `t`/`z`, offsets and fractions included (zod's `iso.datetime` wants
 * upper case). Read the instant with `rfc3339Millis`.
 */
const requestDateTime = z
  .string()
  .refine((t) => rfc3339Millis(t) !== undefined, 'must be an RFC 3339 date-time, e.g. 2026-11-01T12:00:00Z or 2026-11-01T09:00:00-03:00')
  .meta({ format: 'date-time' })
const int64 = z.number().int()

// ---------------------------------------------------------------- requests

/**
 * Text a charge carries to banks, statements, events and terminals: printable Unicode only.
 * Control characters (C0 including tab and newline, DEL, C1) and lone surrogates (not encodable
 * in UTF-8) are refused, naming the field; the spec leaves it "not shown", and a payment
 * provider would refuse them too.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u

function text(field: string) {
  return z.string().refine((t) => !UNPRINTABLE.test(t), `${field} must not contain control characters or unpaired surrogates`)
}

const MetadataKeySchema = text('metadata keys').min(1, 'metadata keys must not be empty')
const MetadataValueSchema = text('metadata values').max(LIMITS.metadataValueMax, `each metadata value must be at most ${LIMITS.metadataValueMax} characters`)
const METADATA_COUNT_MESSAGE = `metadata must have at most ${LIMITS.metadataEntriesMax} entries`

/** The shape metadata has (spec 2.1): an object of string to string, at most 20 entries. It documents; MetadataSchema checks. */
const MetadataRecordSchema = z.record(MetadataKeySchema, MetadataValueSchema).refine((m) => Object.keys(m).length <= LIMITS.metadataEntriesMax, METADATA_COUNT_MESSAGE)

/**
 * Metadata is data: every own key is kept and every value checked, `__proto__` included. zod's
 * record (and object) skip a key named `__proto__` without a word, so that
 * `{"__proto__": 5, "order": "42"}` would pass as `{"order": "42"}`; this schema walks the own
 * keys itself with the record's key and value schemas (same messages) and answers a fresh
 * object whose keys are own data properties (Object.fromEntries defines, never assigns). Its JSON
 * Schema is the record's.
 */
export const MetadataSchema = z.custom<Record<string, string>>().transform((input, ctx) => {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    ctx.issues.push({ code: 'custom', message: 'metadata must be an object of string keys to string values', input })
    return z.NEVER
  }
  const entries: [string, string][] = []
  let valid = true
  for (const key of Reflect.ownKeys(input)) {
    if (typeof key !== 'string' || !Object.prototype.propertyIsEnumerable.call(input, key)) continue
    const value = (input as Record<string, unknown>)[key]
    for (const [schema, checked] of [
      [MetadataKeySchema, key],
      [MetadataValueSchema, value],
    ] as const) {
      const result = schema.safeParse(checked)
      if (result.success) continue
      valid = false
      for (const issue of result.error.issues) ctx.issues.push({ code: 'custom', message: issue.message, input: checked, path: [key, ...issue.path] })
    }
    entries.push([key, value as string])
  }
  if (entries.length > LIMITS.metadataEntriesMax) {
    valid = false
    ctx.issues.push({ code: 'custom', message: METADATA_COUNT_MESSAGE, input })
  }
  return valid ? (Object.fromEntries(entries) as Record<string, string>) : z.NEVER
})
MetadataSchema._zod.toJSONSchema = () => {
  const { $schema: _, ...schema } = z.toJSONSchema(MetadataRecordSchema) as Record<string, unknown>
  return schema
}

export const ChargeCreateRequestSchema = z.object({
  amountInCents: z
    .number({ error: 'amountInCents must be an integer number of centavos' })
    .int('amountInCents must be an integer number of centavos')
    .min(LIMITS.amountMin, `amountInCents must be at least ${LIMITS.amountMin} (R$ 10,00)`)
    .max(LIMITS.amountMax, `amountInCents must be at most ${LIMITS.amountMax} (R$ 5.000,00)`),
  payerTaxNumber: z.string({ error: 'payerTaxNumber is required' }).min(1, 'payerTaxNumber is required').refine(isValidTaxNumber, 'payerTaxNumber is not a valid CPF or CNPJ (check digits do not match)'),
  payerName: text('payerName').max(LIMITS.payerNameMax, `payerName must be at most ${LIMITS.payerNameMax} characters`).optional(),
  externalId: text('externalId').min(1, 'externalId must not be empty').max(LIMITS.externalIdMax, `externalId must be at most ${LIMITS.externalIdMax} characters`).optional(),
  description: text('description').max(LIMITS.descriptionMax, `description must be at most ${LIMITS.descriptionMax} characters`).optional(),
  metadata: MetadataSchema.optional(),
})
export type ChargeCreateRequest = z.infer<typeof ChargeCreateRequestSchema>

export const IdempotencyKeySchema = z.string().min(1, 'Idempotency-Key must not be empty').max(LIMITS.idempotencyKeyMax, `Idempotency-Key must be at most ${LIMITS.idempotencyKeyMax} characters`)

export const ChargeStatusSchema = z.enum(CHARGE_STATUSES)

export const ChargeListQuerySchema = z.object({
  externalId: z.string().max(LIMITS.externalIdMax, `externalId must be at most ${LIMITS.externalIdMax} characters`).optional(),
  status: ChargeStatusSchema.optional(),
  createdAfter: requestDateTime.optional(),
  createdBefore: requestDateTime.optional(),
  startingAfter: z.string().min(1).optional(),
  limit: z.coerce
    .number()
    .int('limit must be an integer')
    .min(LIMITS.listLimitMin, `limit must be between ${LIMITS.listLimitMin} and ${LIMITS.listLimitMax}`)
    .max(LIMITS.listLimitMax, `limit must be between ${LIMITS.listLimitMin} and ${LIMITS.listLimitMax}`)
    .optional(),
})
export type ChargeListQuery = z.infer<typeof ChargeListQuerySchema>

export const AdvanceRequestSchema = z.object({
  status: z.enum(ADVANCE_TARGETS, { error: `status must be one of ${ADVANCE_TARGETS.join(', ')}` }),
})
export type AdvanceRequest = z.infer<typeof AdvanceRequestSchema>

// ---------------------------------------------------------------- resources

export const AmountSchema = z.looseObject({
  grossInCents: int64,
  feeBps: z.number().int(),
  feeFixedInCents: int64,
  feeInCents: int64,
  netInCents: int64,
})

export const PixSchema = z.looseObject({
  qrCode: z.string(),
  qrCodeImageUrl: z.string().optional(),
  expiresAt: dateTime,
})

export const SettlementSchema = z.looseObject({
  delayHours: z.number().int(),
  estimatedAt: dateTime.optional(),
  paidAt: dateTime.optional(),
  settledAt: dateTime.optional(),
  blockchainTxId: z.string().optional(),
})

export const PayerSchema = z.looseObject({
  taxNumber: z.string(),
  name: z.string().optional(),
})

export const EnvironmentSchema = z.enum(['live', 'test'])
/** `Environment`: the one name for an environment across src/ (sandbox, panel, config, fixtures). */
export type Environment = z.infer<typeof EnvironmentSchema>

export const ChargeSchema = z.looseObject({
  id: z.string().regex(/^[0-9a-f]{24}$/, 'id must be 24 hexadecimal characters'),
  externalId: z.string().optional(),
  status: ChargeStatusSchema,
  environment: EnvironmentSchema,
  amount: AmountSchema,
  pix: PixSchema,
  settlement: SettlementSchema,
  payer: PayerSchema,
  description: z.string().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  createdAt: dateTime,
  updatedAt: dateTime,
})
export type Charge = z.infer<typeof ChargeSchema>

export const ChargeListSchema = z.looseObject({
  data: z.array(ChargeSchema),
  hasMore: z.boolean(),
})
export type ChargeList = z.infer<typeof ChargeListSchema>

export const AccountSchema = z.looseObject({
  merchantId: z.string(),
  email: z.string(),
  environment: EnvironmentSchema,
  plan: z.looseObject({ id: z.string(), name: z.string(), feeBps: z.number().int() }),
  feeFixedInCents: int64,
  limits: z.looseObject({ minChargeInCents: int64, maxChargeInCents: int64 }),
  settlementDelayHours: z.number().int(),
  webhook: z.looseObject({ url: z.string(), active: z.boolean() }).optional(),
})
export type Account = z.infer<typeof AccountSchema>

export const EventSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  createdAt: dateTime,
  environment: EnvironmentSchema,
  data: z.looseObject({}),
})
export type SvcEvent = z.infer<typeof EventSchema>

export const WebhookTestResponseSchema = z.looseObject({ eventId: z.string().min(1) })
export type WebhookTestResponse = z.infer<typeof WebhookTestResponseSchema>

export const ErrorDetailSchema = z.object({ field: z.string(), message: z.string() })
export type ErrorDetail = z.infer<typeof ErrorDetailSchema>

export const ErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    details: z.array(ErrorDetailSchema).optional(),
    requestId: z.string(),
  }),
})
export type ErrorBody = z.infer<typeof ErrorBodySchema>

/** One `{field, message}` per rejected field, as spec 2.9 wants, from a zod error. */
export function detailsFromZod(error: z.ZodError, prefix = ''): ErrorDetail[] {
  const byField = new Map<string, string>()
  for (const issue of error.issues) {
    const field = prefix + (issue.path.length ? issue.path.map(String).join('.') : '(body)')
    if (!byField.has(field)) byField.set(field, issue.message)
  }
  return [...byField].map(([field, message]) => ({ field, message }))
}
