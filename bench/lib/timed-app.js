// The merchant's app of the relay benchmark: answers 200 and notes when each event arrived
// (epoch ms with sub-ms precision, comparable across the processes of one machine), by its
// X-SVC-Event-Id. GET /arrivals hands them over and forgets them. Prints its URL when ready;
// stops when stdin closes.
import { createServer } from 'node:http'

let arrivals = {}
let count = 0
const now = () => performance.timeOrigin + performance.now()
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/arrivals') {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ count, arrivals }))
    arrivals = {}
    return
  }
  req.on('data', () => {})
  req.on('end', () => {
    count++
    arrivals[req.headers['x-svc-event-id']] = now()
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"received":true}')
  })
})
server.keepAliveTimeout = 10_000
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/webhooks\n`))
process.stdin.on('end', () => process.exit(0)).resume()
