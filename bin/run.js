#!/usr/bin/env node
// Entry point: refuse old Node with one clear line, turn on the compile cache, and run the
// bundled CLI (dist-bundle/, made by `npm run build`): the same code the single executable runs.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 19)) {
  // One line (CLI.md), naming both ways out: a current Node, or the single executable (no Node at all).
  process.stderr.write(
    `svc needs Node.js 22.19 or newer; this is ${process.version}: install a current Node.js (https://nodejs.org, e.g. \`nvm install 24\`; in a clone of svc, \`npm run svc -- ARGS\` uses the Node 24 it pins), or run the single executable, which needs none (\`npm run build:binary\`, then dist-bin/svc ARGS).\n`,
  )
  process.exit(1)
}
// Not an ES import: that builds each built-in's namespace facade, ~0.4 ms of every command (issue 39.1).
const { enableCompileCache } = process.getBuiltinModule('node:module')
const { fileURLToPath } = process.getBuiltinModule('node:url')
enableCompileCache?.()
const entry = new URL('../dist-bundle/main.js', import.meta.url).href
const cli = await import(entry).catch((err) => {
  // Only main.js itself missing means "not built"; a chunk missing inside the bundle is its own error.
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || (err.url ?? '') !== entry) throw err
  process.stderr.write('svc: dist-bundle/main.js is missing: this checkout is not built. Run `npm run build` and try again.\n')
  process.exit(1)
})
await cli.main({ root: fileURLToPath(new URL('..', import.meta.url)) })
