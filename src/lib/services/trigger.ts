/**
 * `svc trigger` and `svc fixtures run`: a fixture's steps sent to a local sandbox, then the events
 * they made read back from the sandbox's event log, with the resources they made. Sandbox-only:
 * the real service has no advance, no clock and no panel to drive.
 */
import type { ApiClient } from '../api/types.js'
import type { Credentials } from '../config/resolve.js'
import { SANDBOX_LIVE_PROFILE, SANDBOX_PROFILE } from '../config/profiles.js'
import type { ProfileStore } from '../config/store.js'
import { UsageError } from '../errors.js'
import type { Fixture, Override } from '../scenarios/fixture.js'
import { isTriggerType, loadBuiltinFixture, unknownTriggerType } from '../scenarios/builtin.js'
import { type FixtureTransport, FixtureStepError, type StepReport, mainStep, runFixture } from '../scenarios/runner.js'
import { CHOSEN_CODES } from '../contract/errors.js'
import { detectSandbox } from '../sandbox-client/panel-client.js'
import type { Environment } from '../contract/schemas.js'

export interface TriggeredEvent {
  id: string
  type: string
  environment: string
  /** `charge:<id>`, `withdrawal:<id>`, `product-sale:<id>`; absent for charge.test. */
  resource?: string
}

export interface TriggeredResource {
  object: 'charge' | 'withdrawal' | 'product_sale'
  id: string
  status?: string
  environment?: string
}

export interface TriggerResult {
  env: Environment
  steps: StepReport[]
  events: TriggeredEvent[]
  resources: TriggeredResource[]
  /** Environments of these events with no webhook URL: the events are logged, no delivery went out. */
  noWebhook: Environment[]
}

export interface FixtureSession {
  /** The sandbox's key of each environment it has one for. */
  keys: Partial<Record<Environment, string>>
  /** Where the keys came from, for errors (`profile sandbox`, `SVC_API_KEY`). */
  source: string
  /** An API client for a key (one per environment; the caller closes them). */
  clientFor: (apiKey: string) => Promise<ApiClient>
  onStep?: (step: StepReport) => void
}

/** Refuses (exit 2) anything but a local sandbox: trigger drives its advance, clock and panel. */
export async function requireSandbox(baseUrl: string, what: string): Promise<void> {
  if (await detectSandbox(baseUrl)) return
  throw new UsageError(`${what} is sandbox-only: ${baseUrl} is not a local sandbox (it does not answer GET /_sandbox/info).`, {
    code: 'not_a_sandbox',
    next: { do: 'start_sandbox' },
  })
}

/** Where `fixture` may run: the --env asked for, else the fixture's, else the key's; refused where it cannot. */
export function chooseEnv(fixture: Fixture, asked: Environment | undefined, keyEnv: Environment, what: string): Environment {
  const env = asked ?? fixture.env ?? (fixture.envs && !fixture.envs.includes(keyEnv) ? fixture.envs[0]! : keyEnv)
  if (fixture.envs && !fixture.envs.includes(env)) {
    const why = fixture.envs.length === 1 && fixture.envs[0] === 'live' ? 'it happens only in the live environment (spec 6.3)' : 'it needs the sandbox advance, which exists only in test'
    throw new UsageError(`${what} cannot run in the ${env} environment: ${why}.`, { code: 'invalid_env', next: { do: 'use_env', env: fixture.envs[0]! }, field: 'env' })
  }
  return env
}

/** Runs a fixture and reads back the events it made. */
export async function runOnSandbox(fixture: Fixture, overrides: ReadonlyMap<string, Override[]>, env: Environment, source: string, s: FixtureSession): Promise<TriggerResult> {
  const { keys } = s
  const clients = new Map<Environment, Promise<ApiClient>>()
  const client = (e: Environment): Promise<ApiClient> => {
    const key = keys[e]
    if (!key) {
      throw new UsageError(`This needs a ${e} key of the sandbox, and ${s.source} holds none.`, {
        code: 'invalid_env',
        next: { do: 'use_sandbox_key', env: e, profile: e === 'live' ? SANDBOX_LIVE_PROFILE : SANDBOX_PROFILE },
      })
    }
    let c = clients.get(e)
    if (!c) clients.set(e, (c = s.clientFor(key)))
    return c
  }
  const transport: FixtureTransport = {
    async send(req) {
      const res = await (await client(req.env)).raw(req.method, req.path, {
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        headers: req.body === undefined ? {} : { 'content-type': 'application/json' },
      })
      let body: unknown = null
      try {
        body = res.body === '' ? null : JSON.parse(res.body)
      } catch {
        body = res.body
      }
      return { status: res.status, body }
    },
  }
  const log = await client(env)
  const before = await eventLogAfter(log, undefined)
  const steps = await runFixture(fixture, overrides, { env, transport, loadTrigger: loadBuiltinFixture, onStep: s.onStep, source }).catch((err: unknown) => {
    // charge.test (POST /v1/webhooks/test) needs a URL: say how to set one, not only that nothing ran.
    if (err instanceof FixtureStepError && err.code === CHOSEN_CODES.webhookNotConfigured) {
      throw new FixtureStepError(err.message, err.done, {
        exitCode: err.exitCode,
        code: err.code,
        details: err.details,
        next: { do: 'set_webhook_for_trigger', env, ...(err.hint ? { done: err.hint } : {}) },
      })
    }
    throw err
  })
  const made = collect(steps.map((r) => r.answer))
  const all = await eventLogAfter(log, before.lastSeq)
  const events = all.data
    .filter((e) => made.eventIds.has(e.id) || (e.resource !== undefined && made.resourceIds.has(e.resource.slice(e.resource.indexOf(':') + 1))))
    .map(({ id, type, environment, resource }) => ({ id, type, environment, ...(resource ? { resource } : {}) }))
  const noWebhook: Environment[] = []
  for (const e of new Set(events.map((x) => x.environment as Environment))) {
    if (keys[e] && !(await hasWebhookUrl(await client(e)))) noWebhook.push(e)
  }
  return { env, steps, events, resources: [...made.resources.values()], noWebhook }
}

/** Whether the key's environment of the sandbox has a webhook URL (the panel's GET /webhook is 404 without). */
async function hasWebhookUrl(client: ApiClient): Promise<boolean> {
  const res = await client.raw('GET', '/_sandbox/webhook')
  return res.status !== 404
}

export interface TriggerOptions {
  type: string
  overrides: Override[]
  /** The environment asked for (--env); else the type's, else the key's. */
  env?: Environment
  keyEnv: Environment
  /** The session on the sandbox, opened once the type and its environment are known to be fine. */
  session: () => Promise<FixtureSession>
}

/** `svc trigger TYPE` and svc-cli/sandbox's `trigger()`: the type's built-in fixture, run on the sandbox. */
export async function runTrigger(opts: TriggerOptions): Promise<TriggerResult> {
  if (!isTriggerType(opts.type)) throw unknownTriggerType(opts.type)
  const fixture = await loadBuiltinFixture(opts.type)
  const env = chooseEnv(fixture, opts.env, opts.keyEnv, opts.type)
  const byStep = triggerOverrides(fixture, opts.overrides)
  return runOnSandbox(fixture, byStep, env, `trigger ${opts.type}`, await opts.session())
}

/** What a run made, as `--json` and svc-cli/sandbox's `trigger()` give it. */
export function triggerSummary(result: TriggerResult): { events: Array<Pick<TriggeredEvent, 'id' | 'type' | 'environment'>>; resources: TriggeredResource[] } {
  return { events: result.events.map(({ id, type, environment }) => ({ id, type, environment })), resources: result.resources }
}

/** `svc trigger --override path=value` applies to the fixture's first request body. */
export function triggerOverrides(fixture: Fixture, list: Override[]): Map<string, Override[]> {
  if (list.length === 0) return new Map()
  const main = mainStep(fixture)
  if (!main) throw new UsageError(`--override ${list[0]!.text}: ${fixture.name ?? 'this trigger'} sends no request body to override.`, { code: 'invalid_override' })
  return new Map([[main.name, list]])
}

/**
 * The key of each environment: the one given, and the other sandbox profile's when it is one of
 * the pair, read from the stored profiles the door hands in (read only when needed).
 */
export function keysFor(c: Credentials, readProfiles: () => Pick<ProfileStore, 'get'>): Partial<Record<Environment, string>> {
  const keys: Partial<Record<Environment, string>> = { [c.environment]: c.apiKey }
  const sibling = c.profileName === SANDBOX_PROFILE ? SANDBOX_LIVE_PROFILE : c.profileName === SANDBOX_LIVE_PROFILE ? SANDBOX_PROFILE : undefined
  if (sibling) {
    const other = readProfiles().get(sibling)
    const otherEnv: Environment = c.environment === 'test' ? 'live' : 'test'
    if (other?.apiKey?.startsWith(`svc_${otherEnv}_`) && (other.baseUrl ?? '').replace(/\/+$/, '') === c.baseUrl.replace(/\/+$/, '')) keys[otherEnv] = other.apiKey
  }
  return keys
}

interface EventLogPage {
  data: Array<{ seq: number; id: string; type: string; environment: string; resource?: string }>
  lastSeq: number
}

/** The sandbox's event log after `afterSeq` (all of it, page by page), or only its last seq when undefined. */
async function eventLogAfter(client: ApiClient, afterSeq: number | undefined): Promise<EventLogPage> {
  if (afterSeq === undefined) return readPage(client, '/_sandbox/events?limit=0')
  const out: EventLogPage = { data: [], lastSeq: afterSeq }
  let cursor = afterSeq
  for (;;) {
    const page = await readPage(client, `/_sandbox/events?afterSeq=${cursor}&limit=1000`)
    out.data.push(...page.data)
    out.lastSeq = page.lastSeq
    if (page.data.length < 1000) return out
    cursor = page.data.at(-1)!.seq
  }
}

async function readPage(client: ApiClient, path: string): Promise<EventLogPage> {
  const res = await client.raw('GET', path)
  if (res.status !== 200) throw new UsageError(`The sandbox's event log answered ${res.status} (${path}): is it older than this svc?`, { code: 'not_a_sandbox' })
  return JSON.parse(res.body) as EventLogPage
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The resources and event ids the answers name (a later answer of the same resource wins). */
function collect(answers: unknown[]): { resources: Map<string, TriggeredResource>; resourceIds: Set<string>; eventIds: Set<string> } {
  const resources = new Map<string, TriggeredResource>()
  const eventIds = new Set<string>()
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit)
    if (!isObj(v)) return
    if (typeof v.eventId === 'string') eventIds.add(v.eventId)
    const object = kindOf(v)
    if (object && typeof v.id === 'string') {
      resources.set(v.id, { object, id: v.id, ...(typeof v.status === 'string' ? { status: v.status } : {}), ...(typeof v.environment === 'string' ? { environment: v.environment } : {}) })
    }
    for (const child of Object.values(v)) if (isObj(child) || Array.isArray(child)) visit(child)
  }
  answers.forEach(visit)
  return { resources, resourceIds: new Set(resources.keys()), eventIds }
}

function kindOf(v: Obj): TriggeredResource['object'] | undefined {
  if (isObj(v.pix) && typeof v.pix.qrCode === 'string') return 'charge'
  if (isObj(v.pix) && typeof v.pix.key === 'string') return 'withdrawal'
  if (isObj(v.product) && typeof v.buyerEmail === 'string') return 'product_sale'
  return undefined
}
