/**
 * Small helpers shared by the reliability and security suites: bounded concurrency, the
 * exit codes CLI.md documents and what a leaked stack trace looks like (the in-memory IO is test-io.ts).
 */

/** Every exit code CLI.md documents (0 to 8). */
export const DOCUMENTED_EXITS = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8])

/** A V8 stack frame line (`    at fn (file.js:1:2)`) or a bare `Error: …` dump: never for users. */
export const STACK_TRACE = /^\s+at .+(:\d+:\d+\)?|native\)?)$/m

/** Runs `fn` over `items` with at most `limit` calls in flight; results in input order. */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i]!, i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/** A seeded PRNG, so a failing run can be replayed with the same faults (the sandbox's own). */
export { mulberry32 as seeded } from '../../src/lib/sandbox/http/chaos.js'
