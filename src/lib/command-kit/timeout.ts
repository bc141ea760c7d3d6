import { parseDuration } from '../domain/time.js'
import { UsageError } from '../errors.js'

/** Milliseconds of a --timeout value: a duration (`30s`, `2m`) or whole seconds (`45`). */
export function timeoutFlagMs(raw: string): number {
  const ms = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) * 1000 : parseDuration(raw)
  if (ms === undefined || ms <= 0) throw new UsageError(`--timeout must be a duration such as 30s or 2m, not "${raw}".`, { field: 'timeout' })
  return ms
}
