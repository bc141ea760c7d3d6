// The merchant's local app in the forwarder benchmark: reads the body, answers 200. Prints its
// URL on stdout when ready; stops when stdin closes.
import { createServer } from 'node:http'

const server = createServer((req, res) => {
  req.on('data', () => {})
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"received":true}')
  })
})
server.keepAliveTimeout = 10_000
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/webhooks\n`))
process.stdin.on('end', () => process.exit(0)).resume()
