#!/usr/bin/env node
/**
 * npm-shrinkwrap.json for the tarball, from package-lock.json: users who install svc get the
 * dependency tree the tests ran on, so the build-time patches (packaging/patches.js) meet the
 * versions they were written for. npm always packs npm-shrinkwrap.json and honours it when
 * installing the package (package-lock.json is never published).
 *
 *   node packaging/shrinkwrap.js            write it (prepack; scripts/check-pack.js)
 *   node packaging/shrinkwrap.js --remove   remove it (postpack), so the checkout keeps one lock file
 *
 * It is package-lock.json itself (same lockfile format; devDependencies are marked "dev" there
 * and npm leaves them out of a user's install), checked to describe this package.json.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))
export const SHRINKWRAP = join(ROOT, 'npm-shrinkwrap.json')

/** The shrinkwrap's text, or an Error saying why package-lock.json cannot be shipped as it is. */
export function shrinkwrapText() {
  const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  const text = readFileSync(join(ROOT, 'package-lock.json'), 'utf8')
  const lock = JSON.parse(text)
  const root = lock.packages?.['']
  if (lock.lockfileVersion < 2 || !root) throw new Error('shrinkwrap: package-lock.json has no "packages" section (lockfileVersion 2 or 3 needed)')
  if (lock.name !== pjson.name || lock.version !== pjson.version || root.version !== pjson.version)
    throw new Error(`shrinkwrap: package-lock.json is for ${lock.name}@${lock.version}, not ${pjson.name}@${pjson.version}: run npm install`)
  for (const field of ['dependencies', 'devDependencies']) {
    for (const [name, spec] of Object.entries(pjson[field] ?? {})) {
      if (root[field]?.[name] !== spec) throw new Error(`shrinkwrap: package-lock.json has ${name}@${root[field]?.[name]} in ${field}, package.json ${spec}: run npm install`)
      if (!lock.packages[`node_modules/${name}`]) throw new Error(`shrinkwrap: package-lock.json does not lock ${name}: run npm install`)
    }
  }
  return text
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--remove')) rmSync(SHRINKWRAP, { force: true })
  else {
    writeFileSync(SHRINKWRAP, shrinkwrapText())
    process.stdout.write('shrinkwrap: wrote npm-shrinkwrap.json from package-lock.json\n')
  }
}
