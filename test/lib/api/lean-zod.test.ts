/**
 * leanZod() points zod's locale barrel (`z.locales`, 45 modules) at English alone. Right only
 * while nothing reads z.locales and zod itself never imports the barrel for its own use.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { leanZod } from '../../../src/lib/api/lean-zod.js'

const zodRoot = dirname(fileURLToPath(import.meta.resolve('zod/package.json')))
const srcRoot = fileURLToPath(new URL('../../../src', import.meta.url))

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name), ext) : ext.test(e.name) ? [join(dir, e.name)] : []))
}

describe('leanZod', () => {
  it('zod imports the locale barrel only to re-export it as `locales`', () => {
    const uses = files(join(zodRoot, 'v4'), /\.js$/)
      .filter((f) => !f.includes(`${join('v4', 'locales')}`))
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => /locales\/index\.js|from "\.\.?\/locales"|from "\.\/locales\/?"/.test(l)).map((l) => l.trim()))
    expect(new Set(uses)).toEqual(new Set(['export * as locales from "../locales/index.js";']))
  })

  it('no svc source reads z.locales or picks a locale', () => {
    const readers = files(srcRoot, /\.tsx?$/)
      .filter((f) => !f.endsWith(join('api', 'lean-zod.ts')))
      .filter((f) => /\bz\.locales\b|\{\s*locales\b|zod\/(v4\/)?locales|\bz\.config\(/.test(readFileSync(f, 'utf8')))
    expect(readers).toEqual([])
  })

  it('leaves English messages intact and z.locales with English alone', async () => {
    leanZod()
    const { z } = await import('zod')
    expect(Object.keys(z.locales)).toEqual(['en'])
    expect(z.string().safeParse(5).error?.issues[0]?.message).toBe('Invalid input: expected string, received number')
  })
})
