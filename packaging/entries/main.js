/**
 * The entry of the CLI, for the npm package (bin/run.js) and the single executable
 * (packaging/entries/sea-main.js) alike: dist-bundle/main.js, the one way svc runs.
 *
 * `svc --version` and the root help are fixed text, answered without loading oclif (root-help.ts);
 * everything else goes to the bundled oclif (cli.js, loaded only then). `root` is the directory that
 * stands for the package root (where package.json is; `.svc-sea/` beside the binary). The single
 * executable compiles this module into its main script (for the SEA's code cache) and passes
 * `loadCli`, which imports the same dist-bundle/cli.js from its assets.
 */
import { fastAnswer } from '../../dist/root-help.js'
import { useBundleLoader } from './bundle-loader.js'
import { headlessServer } from './servers.js'

/** The npm package's way to its chunks: through the bundle's own module hook (bundle-loader.js), but for a headless server (servers.js). */
function importChunk(argv, load) {
  if (!headlessServer(argv)) useBundleLoader(new URL('./', import.meta.url).href)
  return load()
}

export async function main({ root, argv = process.argv.slice(2), loadCli = () => importChunk(argv, () => import('./cli.js')), loadMcp = () => importChunk(argv, () => import('./mcp.js')) }) {
  if (argv.length <= 1 && !process.env.SVC_NO_FAST_PATH) {
    let answer
    try {
      answer = fastAnswer(root, argv, {
        env: process.env,
        stdoutIsTTY: Boolean(process.stdout.isTTY),
        stderrIsTTY: Boolean(process.stderr.isTTY),
        columns: process.stdout.columns,
      })
    } catch {
      // Any doubt (an unreadable manifest…): oclif answers instead.
    }
    if (answer !== undefined) {
      writeAnswer(answer)
      return
    }
  }
  // The Node version was checked by the caller (stricter than oclif's); oclif's own check loads
  // all of semver on every command to say the same thing.
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
  // `svc mcp` with its plain flags: the MCP server without oclif (an agent waits for it to answer
  // `initialize`); anything it is not sure of comes back here for oclif. `loadMcp: null` (the single
  // executable) always takes oclif.
  if (argv[0] === 'mcp' && loadMcp && !process.env.SVC_NO_FAST_PATH) {
    const { runMcp } = await loadMcp()
    if (await runMcp({ argv: argv.slice(1) })) return
  }
  const { runCli } = await loadCli()
  await runCli({ root, argv })
}

/**
 * Writes the fast path's answer to fd 1 directly: making process.stdout (its stream classes,
 * tty or pipe) was a third of what `svc --version` costs beyond `node -e 0` (issue 39.1). A
 * non-blocking pipe that cannot take it all at once gets the rest through process.stdout; a
 * reader that went away (`svc --help | head -1`) ends it quietly, as on the oclif path; any other
 * failure (a full disk) is one line on stderr and exit 1.
 */
function writeAnswer(text) {
  const bytes = Buffer.from(text)
  let written = 0
  try {
    // Not an ES import of node:fs: building its namespace reads every export, which costs more than it saves.
    const { writeSync } = process.getBuiltinModule('node:fs')
    while (written < bytes.length) written += writeSync(1, bytes, written)
  } catch (err) {
    if (err?.code === 'EPIPE') return
    if (err?.code === 'EAGAIN') {
      process.stdout.write(bytes.subarray(written))
      return
    }
    // A full disk or a closed descriptor: one line, not a stack trace.
    process.stderr.write(`svc: cannot write to standard output: ${err?.code ?? err?.message ?? err}\n`)
    process.exitCode = 1
  }
}
