/**
 * How every benchmark reports: one row per figure, printed as it is measured, with its baseline
 * from the same run and its target; the summary at the end lists what was met and what was not.
 */
export class Report {
  rows = []
  notes = []
  /** This build against the --vs build, same run (bench/lib/budget.js judges them under --check). */
  comparisons = []

  constructor(out = process.stdout) {
    this.out = out
  }

  section(title, subtitle) {
    this.out.write(`\n${title}${subtitle ? `  (${subtitle})` : ''}\n`)
  }

  /**
   * @param {object} row
   * @param {string} row.name       what was measured
   * @param {string} row.value      the figure, formatted
   * @param {string} [row.baseline] the baseline and its figure, formatted
   * @param {string} [row.target]   the target, formatted
   * @param {boolean} [row.ok]      whether the target is met (undefined: informative row)
   */
  row(row) {
    this.rows.push(row)
    const verdict = row.ok === undefined ? '' : row.ok ? 'met' : 'MISSED'
    const cells = [`  ${row.name.padEnd(44)}`, row.value.padStart(14)]
    if (row.baseline) cells.push(`  vs ${row.baseline}`)
    if (row.target) cells.push(`  target ${row.target} ${verdict}`)
    this.out.write(`${cells.join('')}\n`)
  }

  /**
   * One figure of this build and of the --vs build from the same interleaved rounds.
   * @param {{suite: string, name: string, mine: number, theirs: number, better: 'lower' | 'higher', unit?: string}} c
   */
  compare(c) {
    this.comparisons.push(c)
  }

  note(text) {
    this.notes.push(text)
    this.out.write(`  note: ${text}\n`)
  }

  summary() {
    const judged = this.rows.filter((r) => r.ok !== undefined)
    const missed = judged.filter((r) => !r.ok)
    this.out.write(`\nTargets: ${judged.length - missed.length} of ${judged.length} met.\n`)
    for (const r of missed) this.out.write(`  missed: ${r.name} = ${r.value} (target ${r.target})\n`)
  }
}
