/**
 * A reporter that adds one line per missing program at the end of the run, e.g.
 *   2 tests need chromium: apt-get install -y chromium
 * for the tests that test/helpers/system-tools.ts skipped (outside CI) because the machine lacks it.
 */
import type { Reporter, TestModule } from 'vitest/node'
import { NEEDS_NOTE } from './system-tools.js'

export default class NeedsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const byTool = new Map<string, { install: string; count: number }>()
    for (const mod of modules) {
      for (const test of mod.children.allTests('skipped')) {
        const result = test.result()
        const match = result.state === 'skipped' ? NEEDS_NOTE.exec(result.note ?? '') : null
        if (!match) continue
        const [, tool, install] = match as unknown as [string, string, string]
        const entry = byTool.get(tool) ?? { install, count: 0 }
        entry.count++
        byTool.set(tool, entry)
      }
    }
    if (byTool.size === 0) return
    const lines = [...byTool].map(([tool, { install, count }]) => `  ${count} ${count === 1 ? 'test needs' : 'tests need'} ${tool}: ${install}`)
    process.stdout.write(`\nSkipped, for want of a program on this machine (CI runs them):\n${lines.join('\n')}\n`)
  }
}
