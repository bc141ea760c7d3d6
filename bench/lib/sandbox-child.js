// A sandbox in its own process, so that its CPU is not the benchmark's: prints one JSON line
// {baseUrl, testKey, liveKey, webhookSecret} on stdout when ready; stops on SIGTERM, or when
// stdin closes (the benchmark that started it is gone).
import { startSandboxServer } from '../../dist/lib/sandbox/sandbox.js'

const opts = JSON.parse(process.argv[2] ?? '{}')
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
