import { afterEach } from 'vitest'
import type { Receiver } from '../fixtures/receivers/serve.js'

/** Receivers started through `track` are closed after each test of the file. */
export function trackReceivers(): <R extends Receiver>(r: Promise<R>) => Promise<R> {
  const open: Receiver[] = []
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()))
  })
  return async (r) => {
    const receiver = await r
    open.push(receiver)
    return receiver
  }
}
