/**
 * The built-in triggers: one fixture file per event type of spec 6.3, shipped in the package under
 * fixtures/triggers/ (users copy one to start their own: `svc trigger TYPE --print-fixture`).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../config/package.js'
import { EVENT_TYPES, type EventType } from '../contract/event-types.js'
import { UsageError } from '../errors.js'
import { type Fixture, parseFixture } from './fixture.js'

export const TRIGGER_TYPES: readonly EventType[] = EVENT_TYPES

export function isTriggerType(type: string): type is EventType {
  return (TRIGGER_TYPES as readonly string[]).includes(type)
}

export function unknownTriggerType(type: string): UsageError {
  return new UsageError(`Unknown event type ${JSON.stringify(type)}. Known types: ${TRIGGER_TYPES.join(', ')}.`, {
    code: 'unknown_event_type',
    hint: 'Run `svc trigger --help` for what each one does.',
  })
}

export function builtinFixturePath(type: EventType): string {
  const root = packageRoot()
  if (!root) throw new Error('the svc-cli package directory was not found, so neither were its fixtures')
  return join(root, 'fixtures', 'triggers', `${type}.json`)
}

export async function builtinFixtureText(type: string): Promise<string> {
  if (!isTriggerType(type)) throw unknownTriggerType(type)
  // Synchronous on purpose: the single executable serves its embedded files to this readFileSync (packaging/entries/embedded-fs.js).
  return readFileSync(builtinFixturePath(type), 'utf8')
}

export async function loadBuiltinFixture(type: string): Promise<Fixture> {
  const text = await builtinFixtureText(type)
  return parseFixture(text, `fixtures/triggers/${type}.json`)
}
