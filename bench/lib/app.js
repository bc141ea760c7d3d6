// The merchant's local app in the benchmarks: reads the body, answers 200, counts the POSTs it
// received (GET /count). Prints its URL on stdout when ready; stops when stdin closes.
import { createServer } from 'node:http'

let received = 0
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ count: received }))
    return
  }
  req.on('data', () => {})
  req.on('end', () => {
    received++
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"received":true}')
  })
})
server.keepAliveTimeout = 10_000
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/webhooks\n`))
process.stdin.on('end', () => process.exit(0)).resume()
