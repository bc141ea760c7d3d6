/** Shared by the charges and test-advance command tests: credentials, fixtures and request tracking. */
import type { CommandFactory } from '../../src/lib/command-kit/factory.js'
import type { Charge } from '../../src/lib/contract/schemas.js'
import { BASE_URL, charge, LIVE_KEY, TEST_KEY } from './api-fixtures.js'
import { requestsWithoutMock } from './http-mocks.js'

export { BASE_URL, charge, errorBody, LIVE_KEY, TEST_KEY } from './api-fixtures.js'

export const testEnv = { SVC_API_KEY: TEST_KEY, SVC_BASE_URL: BASE_URL }
export const liveEnv = { SVC_API_KEY: LIVE_KEY, SVC_BASE_URL: BASE_URL }

/** A charge id from a number: 24 hex characters. */
export function idOf(n: number): string {
  return n.toString(16).padStart(24, '0')
}

export function chargeN(n: number, overrides: Partial<Charge> = {}): Charge {
  return charge({ id: idOf(n), createdAt: `2026-11-20T14:${String(n % 60).padStart(2, '0')}:00Z`, ...overrides })
}

/**
 * The requests nock saw without a matching interceptor from now on (see http-mocks.ts). With no
 * mock at all, any request the command makes lands here (and fails): `sent()` is how a test
 * proves nothing left.
 */
export function trackUnmatched(): { sent: () => string[] } {
  const before = requestsWithoutMock().length
  return { sent: () => requestsWithoutMock().slice(before) }
}

/**
 * Makes `--wait` run instantly: a clock that advances when it sleeps, for a run's factory
 * (`runCommand(Cmd, argv, { factory: clock.factory })`). `now()` is the fake time in ms.
 */
export function fakeWaitClock(start = 1_800_000_000_000): { now: () => number; sleeps: number[]; factory: Pick<CommandFactory, 'clock'> } {
  let t = start
  const sleeps: number[] = []
  const factory = {
    clock: {
      now: () => t,
      sleep: async (ms: number) => {
        sleeps.push(ms)
        t += ms
      },
    },
  }
  return { now: () => t, sleeps, factory }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: detecting ANSI escapes is the point
export const ANSI = /\u001B\[/
