import { execFile, spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { fastAnswer } from '../src/root-help.js'
import { ROOT } from './helpers/run-command.js'

// The fast answers must be byte for byte what oclif prints: the reference is the built binary
// with the fast path turned off (npm test builds first, so the manifest is current).
const run = promisify(execFile)

async function oclifOutput(argv: string[], env: Record<string, string> = {}): Promise<string> {
  const base: NodeJS.ProcessEnv = { ...process.env, SVC_NO_FAST_PATH: '1' }
  delete base.NO_COLOR
  delete base.FORCE_COLOR
  const { stdout } = await run(process.execPath, [join(ROOT, 'bin/run.js'), ...argv], { env: { ...base, ...env }, cwd: ROOT })
  return stdout
}

const piped = (env: Record<string, string> = {}) => ({ env: { ...env }, stdoutIsTTY: false, stderrIsTTY: false })

describe('svc --version and the root help without oclif', () => {
  it('prints the same version line as oclif', async () => {
    expect(fastAnswer(ROOT, ['--version'], piped())).toBe(await oclifOutput(['--version']))
  })

  it.each([40, 63, 80, 120])('prints the same root help as oclif when piped, %i columns', async (columns) => {
    const env = { OCLIF_COLUMNS: String(columns) }
    const expected = await oclifOutput(['--help'], env)
    expect(fastAnswer(ROOT, ['--help'], piped(env))).toBe(expected)
    expect(fastAnswer(ROOT, [], piped(env))).toBe(expected)
  })

  it('bin/run.js prints the answer whole through a pipe, and a stdout it cannot write to is one line on stderr and exit 1', async () => {
    const { stdout } = await run(process.execPath, [join(ROOT, 'bin/run.js'), '--version'], { cwd: ROOT })
    expect(stdout).toBe(fastAnswer(ROOT, ['--version'], piped()))
    const help = await run(process.execPath, [join(ROOT, 'bin/run.js'), '--help'], { cwd: ROOT, env: { ...process.env, OCLIF_COLUMNS: '80' } })
    expect(help.stdout).toBe(fastAnswer(ROOT, ['--help'], piped({ OCLIF_COLUMNS: '80' })))
    // A stdout opened for reading only: every write fails (EBADF), as a full disk's would (ENOSPC).
    const file = join(mkdtempSync(join(tmpdir(), 'svc-stdout-')), 'read-only')
    writeFileSync(file, '')
    const readOnly = openSync(file, 'r')
    try {
      const r = spawnSync(process.execPath, [join(ROOT, 'bin/run.js'), '--version'], { cwd: ROOT, stdio: ['ignore', readOnly, 'pipe'], encoding: 'utf8' })
      expect(r.stderr).toBe('svc: cannot write to standard output: EBADF\n')
      expect(r.status).toBe(1)
    } finally {
      closeSync(readOnly)
    }
  })

  it('makes the section headers bold on a colour terminal, as oclif does', async () => {
    // FORCE_COLOR makes oclif colour its piped output as it would on a terminal.
    const expected = await oclifOutput(['--help'], { FORCE_COLOR: '1' })
    const answer = fastAnswer(ROOT, ['--help'], { env: { TERM: 'xterm-256color' }, stdoutIsTTY: true, stderrIsTTY: true, columns: 80 })
    expect(answer).toContain('\u001B[1mCOMMANDS\u001B[22m')
    expect(answer).toBe(expected)
  })

  it('keeps a terminal plain when NO_COLOR is set or TERM is dumb', () => {
    for (const env of [{ TERM: 'xterm-256color', NO_COLOR: '1' }, { TERM: 'dumb' }]) {
      expect(fastAnswer(ROOT, ['--help'], { env, stdoutIsTTY: true, stderrIsTTY: true, columns: 80 })).not.toContain('\u001B[')
    }
  })

  it('leaves every other argv, and settings only oclif can judge, to oclif', () => {
    expect(fastAnswer(ROOT, ['charges'], piped())).toBeUndefined()
    expect(fastAnswer(ROOT, ['charges', '--help'], piped())).toBeUndefined()
    expect(fastAnswer(ROOT, ['-v'], piped())).toBeUndefined()
    expect(fastAnswer(ROOT, ['--help'], piped({ FORCE_COLOR: '1' }))).toBeUndefined()
    expect(fastAnswer(ROOT, ['--help'], { env: { TERM: 'xterm', CI: 'true' }, stdoutIsTTY: true, stderrIsTTY: true })).toBeUndefined()
    const themed = mkdtempSync(join(tmpdir(), 'svc-theme-'))
    writeFileSync(join(themed, 'theme.json'), '{"sectionHeader": "red"}')
    expect(fastAnswer(ROOT, ['--help'], piped({ SVC_CONFIG_DIR: themed }))).toBeUndefined()
  })

  it('lists every command once: account and sandbox deliveries only under COMMANDS (issue 16 item 20)', async () => {
    const env = { OCLIF_COLUMNS: '120' }
    for (const help of [await oclifOutput(['--help'], env), fastAnswer(ROOT, ['--help'], piped(env))!]) {
      expect(help.match(/^ {2}account\b/gm)).toHaveLength(1)
      expect(help.slice(help.indexOf('COMMANDS'))).toMatch(/^ {2}account\b/m)
    }
    const sandbox = await oclifOutput(['sandbox', '--help'], env)
    expect(sandbox.match(/^ {2}sandbox deliveries\b/gm)).toHaveLength(1)
    expect(sandbox).toContain('sandbox account')
    // Its resend stays discoverable from the command's own help.
    expect(await oclifOutput(['sandbox', 'deliveries', '--help'], env)).toContain('sandbox deliveries resend')
  })
})
