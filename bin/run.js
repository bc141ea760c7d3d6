#!/usr/bin/env node
// Entry point: refuse old Node with one clear line, turn on the compile cache, hand over to oclif.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(`svc needs Node.js 22.13 or newer; this is ${process.version}. Install a current Node.js (https://nodejs.org) and try again.\n`)
  process.exit(1)
}
const { enableCompileCache } = await import('node:module')
enableCompileCache?.()
const { execute } = await import('@oclif/core')
await execute({ dir: import.meta.url })
