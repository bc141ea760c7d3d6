/** Small statistics and formatting helpers shared by the benchmarks. */

export function median(values) {
  return percentile(values, 50)
}

/** Nearest-rank percentile of a list of numbers (p in 0..100). */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN
  const sorted = Float64Array.from(values).sort()
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]
}

export const ms = (v) => `${v.toFixed(v < 10 ? 2 : 1)} ms`
export const ratio = (v) => `${v.toFixed(2)}×`
export const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`
export const perSecond = (v) => `${Math.round(v).toLocaleString('en-US')}/s`
