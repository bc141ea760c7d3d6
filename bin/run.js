#!/usr/bin/env node
// Entry point: refuse old Node with one clear line, turn on the compile cache, answer --version
// and the root help without loading oclif (they are fixed text, and loading oclif costs more than Node's own start), hand every
// other argv over to oclif: the bundled one (dist-bundle/) when it is current, else node_modules'.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `svc needs Node.js 22.13 or newer; this is ${process.version}. Install a current Node.js (https://nodejs.org, e.g. \`nvm install 24\`; ` +
      'in a clone of svc, `npm run svc -- ARGS` runs it on the Node 24 the project pins), or use the single executable, which needs no Node.js ' +
      '(`npm run build:binary` in a clone of svc, then dist-bin/svc ARGS).\n',
  )
  process.exit(1)
}
const { enableCompileCache } = await import('node:module')
const { fileURLToPath } = await import('node:url')
enableCompileCache?.()
const argv = process.argv.slice(2)
let answer
if (argv.length <= 1 && !process.env.SVC_NO_FAST_PATH) {
  // Any doubt (a dist/ older than this file, an unreadable manifest): oclif answers instead.
  answer = await import('../dist/root-help.js')
    .then(({ fastAnswer }) =>
      fastAnswer(fileURLToPath(new URL('..', import.meta.url)), argv, {
        env: process.env,
        stdoutIsTTY: Boolean(process.stdout.isTTY),
        stderrIsTTY: Boolean(process.stderr.isTTY),
        columns: process.stdout.columns,
      }),
    )
    .catch(() => undefined)
}
if (answer !== undefined) {
  process.stdout.write(answer)
} else {
  // The Node version was checked above (stricter than oclif's); oclif's own check loads all of
  // semver on every command to say the same thing.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
  // The reader of our stdout went away (`svc … | head -3`): stop as if asked to. Long-running
  // commands (listen, watch, sandbox) get their clean SIGTERM path, finishing work in flight;
  // the rest just end, like a Unix tool killed by SIGPIPE, without a stack trace.
  let pipeClosed = false
  process.stdout.on('error', (err) => {
    if (err.code !== 'EPIPE' || pipeClosed) return
    pipeClosed = true
    // oclif's final flush waits for a 'drain' a closed pipe never sends; once the work is done
    // and nothing is left to run, leave with the command's own exit code.
    process.once('beforeExit', () => process.exit(process.exitCode ?? 0))
    if (process.listenerCount('SIGTERM') > 0) process.emit('SIGTERM')
    else process.exit(0)
  })
  // The bundle (npm run build:bundle) when it was built from this dist/: a few files to load
  // instead of hundreds of modules. Otherwise, or with SVC_NO_BUNDLE=1, oclif from node_modules.
  const bundle = process.env.SVC_NO_BUNDLE ? undefined : await loadBundle()
  if (bundle) await bundle.runCli({ root: fileURLToPath(new URL('..', import.meta.url)) })
  else {
    const { execute } = await import('@oclif/core')
    await execute({ dir: import.meta.url })
  }
}

async function loadBundle() {
  const { statSync } = await import('node:fs')
  try {
    const built = statSync(new URL('../dist-bundle/cli.js', import.meta.url)).mtimeMs
    if (built < statSync(new URL('../dist/root-help.js', import.meta.url)).mtimeMs) return undefined
  } catch {
    return undefined
  }
  return import('../dist-bundle/cli.js')
}
