#!/usr/bin/env node
/**
 * dist-bundle/root-help.json, written by `npm run build` (packaging/build-bundle.js): the root help
 * (`svc`, `svc --help`) as oclif's own Help renders it, for every width it can take, plain and in
 * colour, so that src/root-help.ts answers it without loading oclif and without rendering it again.
 *
 * The renders share most of their lines: the file holds each distinct line once, and per width at
 * which the output changes, the lines of the plain and of the colour render. The user agent
 * (`svc-cli/0.3.0 linux-x64 node-v24…`) depends on where svc runs: it is rendered as TOKEN and
 * put in at run time, when it fits on its line.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))
export const TOKEN = '{{svc-user-agent}}'
const MIN_WIDTH = 40
const MAX_WIDTH = 300

/** In a child (`--render`): oclif's root help at each width, as JSON; colour as the environment says. */
async function render() {
  const { Config, Help } = await import('@oclif/core')
  const config = await Config.load({ root: ROOT })
  config.userAgent = TOKEN
  const renders = []
  for (let width = MIN_WIDTH; width <= MAX_WIDTH; width++) {
    const lines = []
    const help = new Help(config, { ...config.pjson.oclif.helpOptions, maxWidth: width })
    help.log = (...args) => lines.push(args.join(' '))
    await help.showRootHelp()
    renders.push(`${lines.join('\n')}\n`)
  }
  process.stdout.write(JSON.stringify(renders))
}

function renders(color) {
  const env = { ...process.env, FORCE_COLOR: color ? '1' : '0' }
  delete env.NO_COLOR
  for (const k of Object.keys(env)) if (k.startsWith('OCLIF_') || k.endsWith('_THEME') || k.endsWith('_CONFIG_DIR')) delete env[k]
  return JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--render'], { env, cwd: ROOT, maxBuffer: 64 << 20, encoding: 'utf8' }))
}

/** The contents of root-help.json. */
export function rootHelpData() {
  const plain = renders(false)
  const color = renders(true)
  const lines = []
  const index = new Map()
  const ids = (text) =>
    text.split('\n').map((line) => {
      if (!index.has(line)) index.set(line, lines.push(line) - 1)
      return index.get(line)
    })
  const variants = []
  for (let i = 0; i < plain.length; i++) {
    if (i > 0 && plain[i] === plain[i - 1] && color[i] === color[i - 1]) continue
    variants.push([MIN_WIDTH + i, ids(plain[i]), ids(color[i])])
  }
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  return { version, token: TOKEN, lines, variants }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--render')) await render()
  else writeFileSync(join(ROOT, 'dist-bundle', 'root-help.json'), JSON.stringify(rootHelpData()))
}
