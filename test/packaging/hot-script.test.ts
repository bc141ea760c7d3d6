/**
 * packaging/entries/hot-script.js: dist-bundle/oclif.cjs and undici.cjs run with a V8 code cache
 * made after a run (issue 39.1). Each case runs in a fresh process, as a command does: the cache
 * is written at its exit, read by the next, made again after the first run of another command,
 * private to its user, and anything wrong with it only means the script runs without one.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/run-command.js'

const HOT = pathToFileURL(join(ROOT, 'packaging/entries/hot-script.js')).href

/**
 * A package dir with x.cjs, and a cache dir; `run(argv)` loads x.cjs in a new process as the
 * command argv names (its id: the words before the first flag joined by `:`) and prints what it exported.
 */
function fixture(script = 'module.exports = { answer: (n) => n * 2, file: __filename }\n') {
  const dir = mkdtempSync(join(tmpdir(), 'svc-hot-'))
  const cacheDir = join(dir, 'cache')
  mkdirSync(cacheDir, { mode: 0o700 })
  writeFileSync(join(dir, 'x.cjs'), script)
  const runner = join(dir, 'run.mjs')
  writeFileSync(
    runner,
    `import { loadHotScript, ranCommand } from ${JSON.stringify(HOT)}
const [cacheDir, id, ...argv] = process.argv.slice(2)
const x = loadHotScript('x.cjs', { hash: process.env.HOT_HASH, dir: ${JSON.stringify(dir)}, cacheDir: cacheDir === '-' ? undefined : cacheDir, argv })
// As cli.js does once oclif has found the command; '-': none was found.
if (id !== '-') ranCommand(id)
process.stdout.write(JSON.stringify({ answer: x.answer(21), file: x.file, viaRequire: x.viaRequire }))
`,
  )
  const idOf = (argv: string[]) => argv.slice(0, argv.findIndex((a) => a.startsWith('-')) >>> 0).join(':') || '-'
  const run = (argv: string[], cache: string = cacheDir, id = idOf(argv), hash = 'f00d') =>
    spawnSync(process.execPath, [runner, cache, id, ...argv], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, HOT_HASH: hash } })
  const files = (suffix: string) => readdirSync(cacheDir).filter((f) => f.endsWith(suffix))
  return { dir, cacheDir, run, files }
}

describe('hot-script: a script of the bundle with a code cache made after a run', () => {
  it('runs the script, writes a private cache at exit, and the next run of the same command reads it without writing again', () => {
    const { dir, cacheDir, run, files } = fixture()
    const first = run(['charges', 'get', 'ID', '--json'], cacheDir, 'charges:get')
    expect(first.stderr).toBe('')
    expect(JSON.parse(first.stdout)).toEqual({ answer: 42, file: join(dir, 'x.cjs') })
    const [cache] = files('.cache')
    expect(cache).toMatch(new RegExp(`^svc-x\\.cjs-${process.version}-${process.arch}-[0-9a-f]+-[0-9a-z]+-[0-9a-z]+\\.cache$`))
    expect(statSync(join(cacheDir, cache!)).mode & 0o777).toBe(0o600)
    const runsFile = join(cacheDir, files('.runs.json')[0]!)
    expect(JSON.parse(readFileSync(runsFile, 'utf8'))).toEqual(['charges:get'])
    const written = statSync(runsFile).mtimeMs
    expect(JSON.parse(run(['charges', 'get', 'OTHER'], cacheDir, 'charges:get').stdout).answer).toBe(42)
    expect(statSync(runsFile).mtimeMs).toBe(written)
    // Another command's first run makes the cache again, adding what it compiled.
    run(['charges', 'list', '--limit', '3'])
    expect(JSON.parse(readFileSync(runsFile, 'utf8'))).toEqual(['charges:get', 'charges:list'])
  })

  it('a run that names no command (help, a typo) makes no cache, and what a command was given is never written', () => {
    const { cacheDir, run, files } = fixture()
    expect(JSON.parse(run(['chargs', 'lst'], cacheDir, '-').stdout).answer).toBe(42)
    expect(files('.cache')).toEqual([])
    // A key typed where a word goes: the cache names the command's id alone.
    run(['login', 'svc_live_0123456789abcdef0123456789abcdef'], cacheDir, 'login')
    const written = readdirSync(cacheDir)
      .map((f) => readFileSync(join(cacheDir, f)).toString('latin1'))
      .join('\n')
    expect(JSON.parse(readFileSync(join(cacheDir, files('.runs.json')[0]!), 'utf8'))).toEqual(['login'])
    expect(written).not.toContain('svc_live_')
  })

  it('a cache V8 refuses (garbage, another script) is made again; the script runs all the same', () => {
    const { run, files, cacheDir } = fixture()
    run(['status'])
    const cache = join(cacheDir, files('.cache')[0]!)
    writeFileSync(cache, 'not a code cache')
    const r = run(['status'])
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout).answer).toBe(42)
    expect(readFileSync(cache).length).toBeGreaterThan(100)
  })

  it('changing the script names another cache: an old one is never read for it', () => {
    const a = fixture()
    a.run(['status'])
    writeFileSync(join(a.dir, 'x.cjs'), 'module.exports = { answer: (n) => n * 3, file: __filename }\n')
    expect(JSON.parse(a.run(['status']).stdout).answer).toBe(63)
    expect(a.files('.cache')).toHaveLength(2)
  })

  it('with the hash the build gives, an edit in place of the same length still names another cache', () => {
    const a = fixture()
    expect(JSON.parse(a.run(['status'], a.cacheDir, 'status', 'b1d0').stdout).answer).toBe(42)
    expect(a.files('.cache')[0]).toMatch(/-b1d0-[0-9a-z]+-[0-9a-z]+\.cache$/)
    // V8 checks a cache against the source's length only: the file's size and time tell the edit.
    writeFileSync(join(a.dir, 'x.cjs'), 'module.exports = { answer: (n) => n * 3, file: __filename }\n')
    expect(JSON.parse(a.run(['status'], a.cacheDir, 'status', 'b1d0').stdout).answer).toBe(63)
    expect(a.files('.cache')).toHaveLength(2)
  })

  it('keeps the three most recent caches of a script, each with its runs, and removes older ones', () => {
    const { run, files, cacheDir } = fixture()
    const old = (i: number) => `svc-x.cjs-${process.version}-${process.arch}-old${i}`
    for (let i = 0; i < 4; i++) {
      writeFileSync(join(cacheDir, `${old(i)}.cache`), 'x')
      writeFileSync(join(cacheDir, `${old(i)}.runs.json`), '[]')
      utimesSync(join(cacheDir, `${old(i)}.cache`), 1_000_000 + i, 1_000_000 + i)
    }
    writeFileSync(join(cacheDir, 'svc-other.cjs-x.cache'), 'not this script')
    run(['status'])
    const mine = files('.cache').filter((f) => f.startsWith('svc-x.cjs-'))
    expect(mine.sort()).toEqual([`${old(2)}.cache`, `${old(3)}.cache`, mine.find((f) => !f.includes('-old'))!].sort())
    expect(files('.runs.json')).toHaveLength(3)
    expect(readdirSync(cacheDir)).toContain('svc-other.cjs-x.cache')
  })

  it('no compile cache, or a cache directory that is not this user\u2019s: the script runs and nothing is written', () => {
    const { run, files, cacheDir } = fixture()
    expect(JSON.parse(run(['status'], '-').stdout).answer).toBe(42)
    expect(files('.cache')).toEqual([])
    // A directory owned by another user: as root, one made so; otherwise the root directory.
    let foreign = '/'
    if (process.getuid?.() === 0) {
      foreign = join(cacheDir, 'theirs')
      mkdirSync(foreign)
      chmodSync(foreign, 0o777)
      chownSync(foreign, 65534, 65534)
    }
    const r = run(['status'], foreign)
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout).answer).toBe(42)
    if (foreign !== '/') expect(readdirSync(foreign)).toEqual([])
  })

  it('a server (webhooks listen, sandbox start, relay serve, in either form) takes the script through require and makes no code cache', () => {
    const { run, files } = fixture("module.exports = { answer: (n) => n * 2, file: __filename, viaRequire: typeof require.cache[__filename] === 'object' }\n")
    for (const argv of [['webhooks', 'listen', '--port', '0'], ['sandbox:start'], ['relay', 'serve', '--db', 'x']]) {
      const r = run(argv)
      expect(r.stderr).toBe('')
      expect(JSON.parse(r.stdout)).toMatchObject({ answer: 42, viaRequire: true })
      expect(files('.cache')).toEqual([])
    }
    // A command that ends in a moment, in its topic:command form, does get one.
    expect(JSON.parse(run(['charges:get', 'ch_1']).stdout).viaRequire).toBe(false)
    expect(files('.runs.json')).toHaveLength(1)
  })

  it("an error's stack names the script's own file and line", () => {
    const { run } = fixture("module.exports = { answer() {\n  return 1\n}, file: __filename }\nthrow new Error('boom at line 4')\n")
    const r = run(['status'])
    expect(r.status).not.toBe(0)
    expect(r.stderr).toMatch(/x\.cjs:4\b/)
  })

  it('the bundle runs oclif and undici this way (dist-bundle/oclif.cjs, undici.cjs), in no chunk, each strict as a whole', () => {
    const bundle = join(ROOT, 'dist-bundle')
    expect(existsSync(join(bundle, 'oclif.cjs')) && existsSync(join(bundle, 'undici.cjs'))).toBe(true)
    // A server requires them as plain CommonJS modules: strict from the first line, as the chunks ran them.
    for (const f of ['oclif.cjs', 'undici.cjs']) expect(readFileSync(join(bundle, f), 'utf8').startsWith('"use strict";\n')).toBe(true)
    const chunks = readdirSync(bundle).filter((f) => f.endsWith('.js'))
    // Their stand-ins name each cache by the hash of the script the build wrote: no run hashes it.
    for (const f of ['oclif.cjs', 'undici.cjs']) {
      const hash = createHash('sha256')
        .update(readFileSync(join(bundle, f)))
        .digest('hex')
        .slice(0, 16)
      expect(chunks.filter((c) => readFileSync(join(bundle, c), 'utf8').includes(`loadHotScript("${f}", { hash: "${hash}" })`))).toHaveLength(1)
    }
    expect(chunks.filter((f) => readFileSync(join(bundle, f), 'utf8').includes('node_modules/@oclif/core/lib/index.js'))).toEqual([])
    expect(chunks.filter((f) => readFileSync(join(bundle, f), 'utf8').includes('node_modules/undici/lib/dispatcher/agent.js'))).toEqual([])
  })
})
