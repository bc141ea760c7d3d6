// Types of budget.js for the tests (the benchmarks are plain JavaScript run by node).
export interface Comparison {
  suite: string
  name: string
  /** This build's runs, paired by index with `theirs` (or one figure). */
  mine: number | readonly number[]
  theirs: number | readonly number[]
  better: 'lower' | 'higher'
  unit?: string
}
export interface Verdict extends Comparison {
  worse: number
  mineMedian: number
  theirsMedian: number
  status: 'ok' | 'regressed' | 'unmeasured'
  confirmedFrom?: number
}
export interface BudgetResult {
  ok: boolean
  verdicts: Verdict[]
  regressions: Verdict[]
  unmeasured: Verdict[]
  missingSuites: string[]
  tolerance: number
}
export const DEFAULT_TOLERANCE: number
export function worseBy(c: { mine: number; theirs: number; better: 'lower' | 'higher' }): number
export function checkBudget(comparisons: readonly Comparison[], opts?: { tolerance?: number; required?: readonly string[] }): BudgetResult
export function suitesToConfirm(result: BudgetResult): string[]
export function confirmed(first: BudgetResult, second: BudgetResult): BudgetResult
export function formatBudget(result: BudgetResult): string[]
