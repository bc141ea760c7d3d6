/**
 * An independent validator accepts the document (CLI.md 0.4): Redocly CLI's `recommended` rules,
 * run offline (no telemetry, no update check) on the service's document, its YAML form and the
 * sandbox's copy. Zero errors and zero warnings.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { buildOpenApiDocument } from '../../../src/lib/contract/openapi.js'
import { toYaml } from '../../../src/lib/output/yaml.js'
import { sandboxOpenApiDocument } from '../../../src/lib/sandbox/http/openapi.js'

const REDOCLY = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js')
const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface LintReport {
  totals: { errors: number; warnings: number }
  problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>
}

async function lint(file: string): Promise<LintReport> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }
  const run = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', '--extends=recommended', '--format=json', file], { env, cwd: dir, timeout: 60_000 }).catch((err: { stdout?: string }) => ({
    stdout: err.stdout ?? '',
  }))
  return JSON.parse(run.stdout) as LintReport
}

const problems = (r: LintReport) => r.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)

describe('Redocly CLI (recommended rules)', () => {
  it.each([
    ['openapi.json', () => JSON.stringify(buildOpenApiDocument())],
    ['openapi.yaml', () => toYaml(buildOpenApiDocument())],
    ['sandbox-openapi.json', () => JSON.stringify(sandboxOpenApiDocument('http://127.0.0.1:8787'))],
  ])('accepts %s with no error and no warning', { timeout: 60_000 }, async (name, text) => {
    writeFileSync(join(dir, name), text())
    const report = await lint(name)
    expect(problems(report)).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
  })
})
