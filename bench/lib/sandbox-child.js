// A sandbox in its own process, so that its CPU is not the benchmark's: prints one JSON line
// {baseUrl, testKey, liveKey, webhookSecret} on stdout when ready; stops on SIGTERM, or when
// stdin closes (the benchmark that started it is gone). The second argument, when given, is
// another built checkout whose sandbox runs instead of this one's (bench --vs).
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const opts = JSON.parse(process.argv[2] ?? '{}')
const root = process.argv[3] ?? join(import.meta.dirname, '../..')
const { startSandboxServer } = await import(pathToFileURL(join(root, 'dist/lib/sandbox/sandbox.js')).href)
const sandbox = await startSandboxServer({ port: 0, ...opts })
const { baseUrl, testKey, liveKey, webhookSecret } = sandbox
process.stdout.write(`${JSON.stringify({ baseUrl, testKey, liveKey, webhookSecret })}\n`)
let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  await sandbox.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
process.stdin.on('end', stop).resume()
