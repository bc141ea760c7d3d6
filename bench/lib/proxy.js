// The plain reverse proxy the forwarder is measured against (issue 14): no verification, no
// log, no deduplication; each request's bytes are sent on to the app over kept-alive
// connections and the app's answer is sent back. Two flavours, so the baseline is the faster
// of what node offers: `node bench/lib/proxy.js http <app url>` (node:http client with a
// keep-alive Agent) or `... undici <app url>` (an undici Pool). Prints its URL when ready;
// stops when stdin closes.
import { Agent, createServer, request } from 'node:http'
import { Pool } from 'undici'

const [kind, appUrl] = process.argv.slice(2)
const app = new URL(appUrl)

const forward = kind === 'undici' ? viaUndici() : viaHttp()
const server = createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const headers = { ...req.headers }
    delete headers.connection
    delete headers.host
    forward(
      req.method,
      Buffer.concat(chunks),
      headers,
      (status, ctype, body) => {
        res.writeHead(status, { 'content-type': ctype ?? 'application/octet-stream' })
        res.end(body)
      },
      () => {
        res.writeHead(502)
        res.end()
      },
    )
  })
})
server.keepAliveTimeout = 10_000
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}${app.pathname}\n`))
process.stdin.on('end', () => process.exit(0)).resume()

function viaHttp() {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  return (method, body, headers, done, fail) => {
    const out = request({ host: app.hostname, port: app.port, path: app.pathname, method, headers, agent }, (answer) => {
      const parts = []
      answer.on('data', (c) => parts.push(c))
      answer.on('end', () => done(answer.statusCode, answer.headers['content-type'], Buffer.concat(parts)))
    })
    out.on('error', fail)
    out.end(body)
  }
}

function viaUndici() {
  const pool = new Pool(app.origin, { connections: 64, keepAliveTimeout: 10_000 })
  return (method, body, headers, done, fail) => {
    pool.request({ path: app.pathname, method, headers, body }).then(async (answer) => {
      const bytes = Buffer.from(await answer.body.arrayBuffer())
      done(answer.statusCode, answer.headers['content-type'], bytes)
    }, fail)
  }
}
