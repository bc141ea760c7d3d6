// Types of rounds.js for the tests (the benchmarks are plain JavaScript run by node).
export function roundOrder(cases: readonly { name: string; mine?: string }[], round: number, swap?: boolean): number[]
export function pairedRuns(runs: number): number
