/**
 * The tools of `svc mcp` (CLI.md 0.4): each one a thin call of the use-case the CLI's command
 * runs (services/, charges/, the API client, the sandbox's panel client, domain/pix-decode,
 * webhooks/verify-delivery), with its input schema built from the contract's zod schemas.
 * `access` says whether a tool can change anything (live keys get only `read` tools unless the
 * user allows writes); `needs` whether it works only on a local sandbox or in test.
 */
import * as z from 'zod'
import { CHARGE_ID } from '../charges/charge-id.js'
import { EVENT_TYPES } from '../contract/event-types.js'
import { LIMITS } from '../contract/limits.js'
import type { Charge } from '../contract/schemas.js'
import { ADVANCE_TARGETS } from '../domain/charge-states.js'
import { formatBps, formatBRL } from '../domain/money.js'
import { isRelativeInstant, parseDuration, parseInstant } from '../domain/time.js'
import { ApiError, UsageError } from '../errors.js'
import { isLoopbackHost } from '../net/loopback.js'
import type { ToolOutput } from './results.js'
import type { McpSession } from './session.js'

// The use-cases are loaded by the call that needs them, not at start-up: an agent waits for
// `initialize` (the trigger fixtures' schemas alone cost more than the rest of the server).
const useCases = {
  advance: () => import('../charges/advance.js'),
  createCharge: () => import('../services/create-charge.js'),
  pix: () => import('../domain/pix-decode.js'),
  panel: () => import('../sandbox-client/panel-client.js'),
  settlement: () => Promise.all([import('../charges/reports.js'), import('../charges/operator-flags.js'), import('../charges/service-clock.js')]),
  trigger: () => Promise.all([import('../services/trigger.js'), import('../scenarios/fixture.js')]),
  verify: () => import('../webhooks/verify-delivery.js'),
}

/** The contract's schemas (contract/schemas.ts), loaded once a client lists or calls a tool, not before `initialize`. */
export type ContractSchemas = typeof import('../contract/schemas.js')

let contract: Promise<ContractSchemas> | undefined

export function loadContract(): Promise<ContractSchemas> {
  contract ??= import('../contract/schemas.js')
  return contract
}

export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  name: string
  title: string
  description: string
  /** Its arguments' schema, built from the contract's. */
  input: (contract: ContractSchemas) => S
  /** `write`: it changes something (a charge, an event sent, the sandbox's clock). */
  access: 'read' | 'write'
  /** `sandbox`: only against a local sandbox; `test`: only with a test key. */
  needs?: 'sandbox' | 'test'
  /** Cancel ends something that cannot be undone. */
  destructive?: boolean
  run(args: z.infer<S>, session: McpSession): Promise<ToolOutput>
}

function tool<S extends z.ZodObject>(def: ToolDef<S>): ToolDef {
  return def as unknown as ToolDef
}

const inputs = new WeakMap<ToolDef, z.ZodObject>()

/** A tool's argument schema (built once). */
export async function inputOf(tool: ToolDef): Promise<z.ZodObject> {
  let schema = inputs.get(tool)
  if (!schema) {
    schema = tool.input(await loadContract())
    inputs.set(tool, schema)
  }
  return schema
}

const chargeId = (what = 'the charge') => z.string().regex(CHARGE_ID, 'must be a charge id: 24 hexadecimal characters').describe(`Id of ${what} (24 hexadecimal characters).`)

const instant = (what: string) =>
  z
    .string()
    .refine((t) => parseInstant(t) !== undefined, 'must be RFC 3339 (2026-11-01T10:00:00Z), a date (2026-11-01), today, yesterday or an age (2h, 7d)')
    .describe(`${what}: RFC 3339, a date (2026-11-01, local midnight), today, yesterday, or an age back from the service's now (2h, 7d).`)

/** An instant argument on the service's clock (a sandbox clock may be days ahead of ours). */
function at(text: string, now: Date): string {
  return parseInstant(text, now)!.toISOString()
}

function amountLine(c: Charge): string {
  return `${formatBRL(c.amount.grossInCents)} (fee ${formatBRL(c.amount.feeInCents)}, net ${formatBRL(c.amount.netInCents)})`
}

/** A base URL on this machine: where a local sandbox runs. */
export const isLocalUrl = (baseUrl: string): boolean => isLoopbackHost(new URL(baseUrl).hostname)

export const TOOLS: readonly ToolDef[] = [
  tool({
    name: 'create_charge',
    title: 'Create a Pix charge',
    description:
      'Creates a Pix charge (POST /v1/charges) and returns it with its copy-and-paste code (pix.qrCode) and QR image URL. ' +
      'Amounts are integer centavos (1500 = R$ 15,00). The request carries an idempotency key (yours, or a new one per call): the same ' +
      'idempotency key, or the same externalId with the same body, returns the existing charge (created: false) instead of a second one. Without payerTaxNumber a test key uses a generated test CPF.',
    access: 'write',
    input: ({ ChargeCreateRequestSchema, IdempotencyKeySchema }) =>
      z.strictObject({
        amountInCents: ChargeCreateRequestSchema.shape.amountInCents.describe(`Gross amount in integer centavos, ${LIMITS.amountMin} to ${LIMITS.amountMax} (1500 = R$ 15,00).`),
        payerTaxNumber: ChargeCreateRequestSchema.shape.payerTaxNumber.optional().describe("Payer's CPF or CNPJ, with or without punctuation (required with a live key)."),
        payerName: ChargeCreateRequestSchema.shape.payerName.describe("Payer's name."),
        externalId: ChargeCreateRequestSchema.shape.externalId.describe('Your order id: the same value never becomes two charges.'),
        description: ChargeCreateRequestSchema.shape.description.describe('Shown in responses and events, not on the payer statement.'),
        metadata: ChargeCreateRequestSchema.shape.metadata.describe(`Up to ${LIMITS.metadataEntriesMax} string key/value pairs.`),
        idempotencyKey: IdempotencyKeySchema.optional().describe('Idempotency-Key for a safe retry (default: a new one per call).'),
      }),
    async run({ idempotencyKey, payerTaxNumber, ...body }, s) {
      const { createCharge, notPayableNote } = await useCases.createCharge()
      const notes: string[] = []
      const { charge, created, notPayable } = await createCharge(
        { input: { body, ...(idempotencyKey ? { idempotencyKey } : {}) }, payerTaxNumber, environment: s.credentials.environment },
        {
          client: await s.client(),
          canPrompt: false,
          ask: () => Promise.reject(new Error('no prompt in svc mcp')),
          note: (t) => notes.push(t.replaceAll('--payer-tax-number', 'payerTaxNumber')),
          retryHint: (key) => `It may have been created: call create_charge again with idempotencyKey "${key}" to get it without creating a second one.`,
        },
      )
      if (notPayable) {
        notes.push(
          notPayableNote(charge)
            .replace(/ No QR shown; exit 5\./, ' Do not show its QR to a payer.')
            .replace('--external-id', 'externalId'),
        )
      }
      const head = created ? `Created charge ${charge.id}` : `An existing charge was returned (idempotent replay): ${charge.id}`
      return { structured: { charge, created }, text: [`${head}, ${charge.status}, ${amountLine(charge)}, expires ${charge.pix.expiresAt}.`, ...notes].join(' ') }
    },
  }),
  tool({
    name: 'get_charge',
    title: 'Read a charge',
    description: 'Reads one charge (GET /v1/charges/{id}): status, amounts, Pix code, settlement (paidAt, estimatedAt, settledAt, blockchainTxId), payer, metadata.',
    access: 'read',
    input: () => z.strictObject({ id: chargeId() }),
    async run({ id }, s) {
      const charge = await (await s.client()).getCharge(id)
      return { structured: { charge }, text: `Charge ${charge.id}: ${charge.status}, ${amountLine(charge)}.` }
    },
  }),
  tool({
    name: 'list_charges',
    title: 'List charges',
    description:
      'Lists charges newest first (GET /v1/charges), filtered by status, externalId and creation time; at most `limit` (1 to 100, default 20) per call. ' +
      'When hasMore is true, call again with startingAfter = nextCursor for the next page.',
    access: 'read',
    input: ({ ChargeListQuerySchema, ChargeStatusSchema }) =>
      z.strictObject({
        status: ChargeStatusSchema.optional().describe('Only charges in this state.'),
        externalId: ChargeListQuerySchema.shape.externalId.describe('Only the charge with this order id.'),
        createdAfter: instant('Created after this time').optional(),
        createdBefore: instant('Created before this time').optional(),
        limit: z.number().int('must be an integer').min(LIMITS.listLimitMin).max(LIMITS.listLimitMax).optional().describe(`Charges per page, ${LIMITS.listLimitMin} to ${LIMITS.listLimitMax} (default 20).`),
        startingAfter: chargeId('the last charge of the previous page (its nextCursor)').optional(),
      }),
    async run(args, s) {
      const client = await s.client()
      const relative = [args.createdAfter, args.createdBefore].some((t) => t !== undefined && isRelativeInstant(t))
      // `2h` counts back from the service's now: one small request reads its Date header first.
      if (relative) await client.listCharges({ limit: 1 })
      const now = client.serverNow()
      const query = {
        ...(args.status ? { status: args.status } : {}),
        ...(args.externalId ? { externalId: args.externalId } : {}),
        ...(args.createdAfter ? { createdAfter: at(args.createdAfter, now) } : {}),
        ...(args.createdBefore ? { createdBefore: at(args.createdBefore, now) } : {}),
        ...(args.limit ? { limit: args.limit } : {}),
        ...(args.startingAfter ? { startingAfter: args.startingAfter } : {}),
      }
      if (query.createdAfter && query.createdBefore && query.createdAfter >= query.createdBefore) {
        throw new UsageError('createdAfter must be earlier than createdBefore; nothing was sent.', { field: 'createdAfter' })
      }
      const page = await client.listCharges(query)
      const nextCursor = page.hasMore ? page.data.at(-1)?.id : undefined
      const counts = new Map<string, number>()
      for (const c of page.data) counts.set(c.status, (counts.get(c.status) ?? 0) + 1)
      const summary = [...counts].map(([k, n]) => `${n} ${k}`).join(', ')
      const text = `${page.data.length} charge${page.data.length === 1 ? '' : 's'}${summary ? ` (${summary})` : ''}.${nextCursor ? ` More: call again with startingAfter ${nextCursor}.` : ''}`
      return { structured: { data: page.data, hasMore: page.hasMore, ...(nextCursor ? { nextCursor } : {}) }, text }
    },
  }),
  tool({
    name: 'cancel_charge',
    title: 'Cancel an unpaid charge',
    description:
      'Cancels a charge that is not paid yet (POST /v1/charges/{id}/cancel). Its QR stays technically payable: remove it from the payer’s view; ' +
      'a late payment still goes through. A paid charge is refused (409 charge_not_cancelable).',
    access: 'write',
    destructive: true,
    input: () => z.strictObject({ id: chargeId('the charge to cancel') }),
    async run({ id }, s) {
      const charge = await (await s.client()).cancelCharge(id)
      return { structured: { charge }, text: `Charge ${charge.id} is ${charge.status}. Its QR stays payable: remove it from the payer's view.` }
    },
  }),
  tool({
    name: 'advance_charge',
    title: 'Move a test charge to a new state',
    description:
      'Test environment only (POST /v1/test/charges/{id}/advance): moves a test charge as if the payer paid (paid_pending_settlement), the asset ' +
      'settled (settled), the QR expired (expired) or the payment was refunded (refunded), through the same state machine as production. ' +
      'A backwards move is refused (409 invalid_transition). Each move sends its webhook event.',
    access: 'write',
    needs: 'test',
    input: () => z.strictObject({ id: chargeId('a test charge'), status: z.enum(ADVANCE_TARGETS).describe('The state to move the charge to.') }),
    async run({ id, status }, s) {
      const { advanceCharge } = await useCases.advance()
      const charge = await advanceCharge(() => s.client(), s.credentials, id, status)
      const settled = charge.settlement.blockchainTxId ? `, blockchainTxId ${charge.settlement.blockchainTxId}` : ''
      return { structured: { charge }, text: `Charge ${charge.id} moved to ${charge.status}${settled}.` }
    },
  }),
  tool({
    name: 'get_account',
    title: 'Read the merchant account',
    description: 'Reads the merchant account (GET /v1/account): environment, plan and fee (feeBps, feeFixedInCents), charge limits, settlement hold, webhook URL and whether it is active.',
    access: 'read',
    input: () => z.strictObject({}),
    async run(_args, s) {
      const account = await (await s.client()).getAccount()
      const hook = account.webhook ? `webhook ${account.webhook.url} (${account.webhook.active ? 'active' : 'INACTIVE'})` : 'no webhook URL'
      const text =
        `Account ${account.merchantId}, ${account.environment} environment: plan ${account.plan.name} (${formatBps(account.plan.feeBps)} + ${formatBRL(account.feeFixedInCents)}), ` +
        `charges ${formatBRL(account.limits.minChargeInCents)} to ${formatBRL(account.limits.maxChargeInCents)}, settlement after ${account.settlementDelayHours} h, ${hook}.`
      return { structured: { account }, text }
    },
  }),
  tool({
    name: 'send_test_webhook',
    title: 'Send a test webhook event',
    description:
      "Makes the service sign and deliver a charge.test event to this environment's webhook URL (POST /v1/webhooks/test), exactly like a real event. " +
      'Returns its eventId, the id of the delivered body. Refused (404 webhook_not_configured) when no URL is set.',
    access: 'write',
    input: () => z.strictObject({}),
    async run(_args, s) {
      const client = await s.client()
      const { eventId } = await client.testWebhook().catch(async (err: unknown) => {
        if (!(err instanceof ApiError) || err.status !== 404) throw err
        const { baseUrl, environment } = s.credentials
        const [{ setWebhookHint }] = await useCases.trigger()
        const hint = isLocalUrl(baseUrl)
          ? `No webhook URL is set for the ${environment} environment of the local sandbox: ${setWebhookHint(environment)}.`
          : `No webhook URL is set for the ${environment} environment: set it in the panel (API, Webhook).`
        throw new ApiError({ status: err.status, code: err.apiCode, message: err.message, details: err.details, requestId: err.requestId, hint })
      })
      return { structured: { eventId }, text: `Sent a charge.test event ${eventId} to the ${s.credentials.environment} webhook URL.` }
    },
  }),
  tool({
    name: 'settlement_report',
    title: 'Sum what settled and was refunded, per day, week or month',
    description:
      'The same report as `svc report settlements --json` (the same use-case and date rules): per period (a day, week or month in `tz`), the charges ' +
      'whose settlement.settledAt falls in it (count, gross, fee, net; a refunded charge was settled first) and the charges refunded in it (by ' +
      'updatedAt), with a total. `from` is the first day (or an instant), `to` the last day included (or an instant, excluded). Every charge is ' +
      'checked: one whose fee + net differs from its gross is listed in `unbalanced`, never summed. The API filters by creation only: this scans ' +
      'settled and refunded charges created up to `lookback` (default 30d) before `from`.',
    access: 'read',
    input: () =>
      z.strictObject({
        from: z.string().describe("First day of the range: a day (2026-11-01, in tz), today, yesterday, an age (7d, back from the service's now) or an RFC 3339 instant."),
        to: z.string().describe('Last day of the range, included (same forms; an RFC 3339 instant is excluded).'),
        by: z.enum(['day', 'week', 'month']).optional().describe('Period length (default day; weeks start on Monday).'),
        tz: z.string().optional().describe('IANA time zone of the days, e.g. America/Sao_Paulo (default: the zone of the machine svc runs on).'),
        lookback: z
          .string()
          .refine((t) => parseDuration(t) !== undefined, 'must be a duration such as 30d or 72h')
          .optional()
          .describe('How long before `from` a charge settled in the period may have been created (default 30d).'),
      }),
    async run(args, s) {
      const [{ settlementReport }, { anyRelative, parseReportFlags }, { readOnServiceClock }] = await useCases.settlement()
      // The CLI's own reading of the range (exit-2 messages name flags: here the arguments).
      const read = (now: Date, decides: boolean) => {
        try {
          return parseReportFlags(args, now, 'See the tool description.', decides)
        } catch (err) {
          if (!(err instanceof UsageError)) throw err
          const details = (err.details ?? []).map((d) => ({ ...d, field: d.field.replace(/^--/, '') }))
          throw new UsageError(err.message.replaceAll('--', ''), { details })
        }
      }
      const range = await readOnServiceClock(() => s.client(), anyRelative(args.from, args.to), read)
      const client = await s.client()
      const report = await settlementReport(client, { ...range, lookbackMs: parseDuration(args.lookback ?? '30d')! })
      const { settled, refunded } = report.total
      const text =
        `${report.from} to ${report.to} (${range.timeZone}, by ${range.by}): ${settled.count} settled, gross ${formatBRL(settled.grossInCents)}, fee ${formatBRL(settled.feeInCents)}, net ${formatBRL(settled.netInCents)}; ` +
        `${refunded.count} refunded, ${formatBRL(refunded.grossInCents)}.${report.unbalanced.length ? ` ${report.unbalanced.length} charge(s) do not balance (fee + net ≠ gross): ${report.unbalanced.join(', ')}.` : ''}`
      return { structured: report as unknown as Record<string, unknown>, text }
    },
  }),
  tool({
    name: 'decode_pix',
    title: 'Decode a Pix copy-and-paste code',
    description:
      "Checks a Pix copy-and-paste string (EMV BR Code) as a payer's bank would (characters, length, CRC16, the br.gov.bcb.pix template, the Bacen limits) " +
      'and returns its fields: kind (static or dynamic), merchantName, merchantCity, key or url, amountInCents, txid, crc; or valid: false with the reason.',
    access: 'read',
    input: () => z.strictObject({ brcode: z.string().describe('The copy-and-paste string, e.g. a charge’s pix.qrCode.') }),
    async run({ brcode }) {
      const { decodePix } = await useCases.pix()
      const verdict = decodePix(brcode.trim())
      const text = verdict.valid
        ? `Valid ${verdict.kind} Pix code: ${verdict.merchantName}, ${verdict.merchantCity}${verdict.amountInCents !== undefined ? `, ${formatBRL(verdict.amountInCents)}` : ''}.`
        : `Invalid Pix code (${verdict.reason}): ${verdict.message}.`
      return { structured: { ...verdict }, text }
    },
  }),
  tool({
    name: 'verify_webhook',
    title: 'Verify a webhook delivery',
    description:
      'Checks one delivery as a receiver must (spec 6.2): the X-SVC-Signature HMAC over `<X-SVC-Timestamp>.<raw body>` with the secret (constant-time), ' +
      'the timestamp within the tolerance, and X-SVC-Event-Id / X-SVC-Event-Type equal to the signed body’s. Give the body exactly as received (never re-serialised). ' +
      "Without a secret, SVC_WEBHOOK_SECRET or the profile's is used. Returns valid: true with the event id and type, or valid: false with the reason and the header at fault.",
    access: 'read',
    input: () =>
      z.strictObject({
        headers: z.record(z.string(), z.string()).describe('The delivery’s headers (X-SVC-Signature, X-SVC-Timestamp, X-SVC-Event-Id, X-SVC-Event-Type), any case.'),
        body: z.string().describe('The raw body, byte for byte as received.'),
        secret: z.string().min(1).optional().describe("The webhook secret (whsec_…); default SVC_WEBHOOK_SECRET or the profile's."),
        toleranceSeconds: z.number().int().min(0).optional().describe(`Allowed clock difference either way (default ${LIMITS.webhookToleranceSeconds}).`),
      }),
    async run(args, s) {
      const secrets = args.secret ? [args.secret] : await s.webhookSecrets()
      if (secrets.length === 0) {
        throw new UsageError('A webhook secret is required.', { field: 'secret', hint: 'Pass secret, set SVC_WEBHOOK_SECRET for svc mcp, or use a profile that has one (`svc login`, `svc sandbox start`).' })
      }
      const { verifyDelivery } = await useCases.verify()
      const headers = Object.fromEntries(Object.entries(args.headers).map(([k, v]) => [k.toLowerCase(), v]))
      const v = verifyDelivery({ body: args.body, headers, secrets, toleranceSeconds: args.toleranceSeconds })
      if (!v.ok) return { structured: { valid: false, reason: v.reason, message: v.message, field: v.field }, text: `Invalid delivery (${v.reason}, ${v.field}): ${v.message}.` }
      const structured = { valid: true, secretIndex: v.secretIndex, ...(v.eventId ? { eventId: v.eventId } : {}), ...(v.type ? { type: v.type } : {}) }
      return { structured, text: `Valid delivery${v.type ? ` of ${v.type}` : ''}${v.eventId ? ` (${v.eventId})` : ''}, signed with secret #${v.secretIndex + 1}.` }
    },
  }),
  tool({
    name: 'trigger_event',
    title: 'Make the sandbox send an event',
    description:
      'Local sandbox only: drives real resources so that the sandbox emits an event of this type through its delivery pipeline (signed, logged, retried) ' +
      "to the environment's webhook URL. charge.* advances exist only in test; product.paid is always live. Returns the events and the resources made.",
    access: 'write',
    needs: 'sandbox',
    input: () =>
      z.strictObject({
        type: z.enum(EVENT_TYPES).describe('The event type (spec 6.3).'),
        env: z.enum(['test', 'live']).optional().describe("Environment to emit in (default: the type's, else the key's)."),
        overrides: z.array(z.string()).optional().describe('Fields of the first request body: path=value (amountInCents=2500, metadata.order=42) or path:=json.'),
      }),
    async run(args, s) {
      const { credentials } = s
      const [{ keysFor, requireSandbox, runTrigger, setWebhookHint, triggerSummary }, { parseOverride }] = await useCases.trigger()
      await requireSandbox(credentials.baseUrl, 'trigger_event')
      const overrides = (args.overrides ?? []).map(parseOverride)
      const session = async () => ({ keys: keysFor(credentials, s.env), source: credentials.source, clientFor: (key: string) => s.client(key) })
      const result = await runTrigger({ type: args.type, overrides, env: args.env, keyEnv: credentials.environment, session })
      const summary = triggerSummary(result)
      const missing = result.noWebhook.map((e) => ` No webhook URL is set for ${e}: the events are logged but not delivered; ${setWebhookHint(e)}.`).join('')
      const text = `Triggered ${args.type}: ${summary.events.map((e) => `${e.type} ${e.id}`).join(', ') || 'no event'}.${missing}`
      return { structured: { ...summary, ...(result.noWebhook.length ? { noWebhook: result.noWebhook } : {}) }, text }
    },
  }),
  tool({
    name: 'advance_clock',
    title: "Move the sandbox's clock forward",
    description:
      'Local sandbox only: jumps its clock ahead (90s, 10m, 25h, 1h30m, 2d) and returns once everything that fell due has run, in order: QR expiries, ' +
      'settlements after the hold, webhook retries. The clock only moves forward.',
    access: 'write',
    needs: 'sandbox',
    input: () =>
      z.strictObject({
        duration: z
          .string()
          .refine((t) => (parseDuration(t) ?? 0) >= 1, 'must be a duration such as 90s, 10m or 25h')
          .describe('How far to move: 90s, 10m, 25h, 1h30m, 2d.'),
      }),
    async run({ duration }, s) {
      const result = await (await s.panel()).advanceClock(parseDuration(duration)!)
      return { structured: result, text: `Sandbox clock moved ${duration} ahead: now ${result.now}.` }
    },
  }),
  tool({
    name: 'list_deliveries',
    title: "Read the sandbox's webhook delivery log",
    description:
      'Local sandbox only: the webhook deliveries, newest first, with attempts, last answer, next retry and state (pending, succeeded, failed, skipped). ' +
      'With eventId, only that event’s delivery with every attempt and the body sent.',
    access: 'read',
    needs: 'sandbox',
    input: () =>
      z.strictObject({
        eventId: z.string().min(1).optional().describe('Only the delivery of this event.'),
        env: z.enum(['test', 'live']).optional().describe("Environment (default: the key's)."),
        limit: z.number().int().min(1).max(1000).optional().describe('At most this many deliveries (1 to 1000, default 50).'),
      }),
    async run(args, s) {
      const env = args.env ?? s.credentials.environment
      const [panel, { noDeliveryError }] = await Promise.all([s.panel(), useCases.panel()])
      const { data } = await panel.listDeliveries({ env, eventId: args.eventId, limit: args.limit ?? 50 })
      if (args.eventId && data.length === 0) throw noDeliveryError(args.eventId, env)
      const states = new Map<string, number>()
      for (const d of data) states.set(d.state, (states.get(d.state) ?? 0) + 1)
      const text = `${data.length} deliver${data.length === 1 ? 'y' : 'ies'} in ${env}${states.size ? `: ${[...states].map(([k, n]) => `${n} ${k}`).join(', ')}` : ''}.`
      return { structured: { data }, text }
    },
  }),
]
