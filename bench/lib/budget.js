/**
 * The performance budget (issue 39.4): figures of this build and of another build (`--vs DIR`,
 * e.g. the previous release) measured interleaved in the same run, compared with a tolerance.
 * Pure: no timing here, so the decision is unit-tested (test/bench/budget.test.ts) while the
 * measuring stays in the benchmarks.
 *
 * A comparison is `{ suite, name, mine, theirs, better: 'lower' | 'higher', unit? }` where `mine`
 * and `theirs` are the runs of this build and of the other one, paired by index: run i of each
 * was taken in the same round, one right after the other. The verdict is the median over the
 * pairs of how much worse this build was: on a shared machine the load moves between rounds
 * (one copy of a build measured 5 500/s then 2 000/s), and a pair sees the same moment, so
 * comparing pairs cancels what comparing two medians or two best runs does not.
 *
 * A figure that could not be measured (no pair, NaN, ≤ 0) is a failure, not a pass: a budget
 * nobody can read is no budget. A regression must show in two passes (run.js measures the
 * suites again when the first pass regressed, with the other build started and run first this
 * time, see confirmed()), since one pass can still fall on a bad minute or favour a position.
 */

/** More than this much worse than the other build is a regression. */
export const DEFAULT_TOLERANCE = 0.1

/**
 * How much worse `mine` is than `theirs`, as a fraction (0.12 = 12 % worse; negative = better),
 * whichever direction is better for the figure.
 */
export function worseBy({ mine, theirs, better }) {
  return better === 'lower' ? mine / theirs - 1 : theirs / mine - 1
}

function measurable(v) {
  return typeof v === 'number' && Number.isFinite(v) && v > 0
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

const runs = (v) => (Array.isArray(v) ? v : [v])

/**
 * Judges every comparison. Returns `{ ok, verdicts, regressions, unmeasured, missingSuites }`:
 * each verdict is the comparison with `worse` (the median over its pairs, see worseBy), the
 * medians `mineMedian`/`theirsMedian` for people, and `status` ('ok' | 'regressed' |
 * 'unmeasured'). `required` lists the suites that must have given at least one comparison (a
 * suite that crashed or was left out fails the check too).
 */
export function checkBudget(comparisons, { tolerance = DEFAULT_TOLERANCE, required = [] } = {}) {
  if (!(tolerance >= 0)) throw new Error(`tolerance must be a fraction ≥ 0, not ${tolerance}`)
  const verdicts = comparisons.map((c) => {
    if (c.better !== 'lower' && c.better !== 'higher') throw new Error(`${c.name}: better must be 'lower' or 'higher', not ${c.better}`)
    const mine = runs(c.mine)
    const theirs = runs(c.theirs)
    if (mine.length !== theirs.length) throw new Error(`${c.name}: ${mine.length} runs of this build against ${theirs.length} of the other; the runs are compared in pairs`)
    const pairs = mine.map((m, i) => [m, theirs[i]]).filter(([m, t]) => measurable(m) && measurable(t))
    const shown = { mineMedian: median(mine.filter(measurable)), theirsMedian: median(theirs.filter(measurable)) }
    // A pair lost is a run that failed: the whole figure is then unmeasured, not judged on what is left.
    if (pairs.length === 0 || pairs.length < mine.length) return { ...c, ...shown, worse: Number.NaN, status: 'unmeasured' }
    const worse = median(pairs.map(([m, t]) => worseBy({ mine: m, theirs: t, better: c.better })))
    // A tiny epsilon so that exactly 10 % worse (after float rounding) is still within a 10 % budget.
    return { ...c, ...shown, worse, status: worse > tolerance + 1e-9 ? 'regressed' : 'ok' }
  })
  const present = new Set(comparisons.map((c) => c.suite))
  const missingSuites = required.filter((s) => !present.has(s))
  const regressions = verdicts.filter((v) => v.status === 'regressed')
  const unmeasured = verdicts.filter((v) => v.status === 'unmeasured')
  return { ok: regressions.length === 0 && unmeasured.length === 0 && missingSuites.length === 0, verdicts, regressions, unmeasured, missingSuites, tolerance }
}

/** The suites to measure again: those with a regressed figure (a figure not measured is not retried: it fails). */
export function suitesToConfirm(result) {
  return [...new Set(result.regressions.map((r) => r.suite))]
}

/**
 * The verdict after a second pass over the suites that regressed in the first: a figure stays a
 * regression only when it regressed in both; the second pass's own failures to measure count.
 */
export function confirmed(first, second) {
  const key = (v) => `${v.suite}\n${v.name}`
  const again = new Map(second.verdicts.map((v) => [key(v), v]))
  const verdicts = first.verdicts.map((v) => {
    if (v.status !== 'regressed') return v
    const retry = again.get(key(v))
    if (!retry) return { ...v, status: 'unmeasured' }
    if (retry.status === 'regressed') return { ...retry, worse: Math.min(v.worse, retry.worse) }
    return { ...retry, confirmedFrom: v.worse }
  })
  const regressions = verdicts.filter((v) => v.status === 'regressed')
  const unmeasured = verdicts.filter((v) => v.status === 'unmeasured')
  const missingSuites = first.missingSuites
  return { ok: regressions.length === 0 && unmeasured.length === 0 && missingSuites.length === 0, verdicts, regressions, unmeasured, missingSuites, tolerance: first.tolerance }
}

/** The check's verdict as lines for the terminal. */
export function formatBudget(result) {
  const pct = (f) => `${f >= 0 ? '+' : '−'}${Math.abs(f * 100).toFixed(1)} %`
  const fig = (v, unit = '') => (measurable(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(v < 1000 ? 1 : 0)}${unit}` : 'not measured')
  const lines = [`\nBudget check (this build vs --vs, median over runs taken in pairs; worse by more than ${Math.round(result.tolerance * 100)} % fails):`]
  for (const v of result.verdicts) {
    const mark = v.status === 'ok' ? 'ok  ' : 'FAIL'
    const how = v.status === 'unmeasured' ? 'not measured' : `${pct(v.worse)} ${v.worse > 0 ? 'worse' : 'better'}`
    const retried = v.confirmedFrom !== undefined ? `; first pass ${pct(v.confirmedFrom)}, not confirmed` : ''
    lines.push(`  ${mark} ${v.suite}: ${v.name.padEnd(44)} ${fig(v.mineMedian, v.unit).padStart(12)} vs ${fig(v.theirsMedian, v.unit).padStart(12)}  (${how}, ${v.better} is better${retried})`)
  }
  for (const s of result.missingSuites) lines.push(`  FAIL ${s}: no figure (the suite did not run or could not compare with --vs)`)
  lines.push(result.ok ? 'Budget: within.' : `Budget: EXCEEDED (${result.regressions.length} regressed, ${result.unmeasured.length + result.missingSuites.length} not measured).`)
  return lines
}
