/** A webhook receiver on 127.0.0.1:0 for the delivery tests: records raw requests, answers as told. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
  /** How many answers the target had sent when this request arrived. */
  answeredBefore: number
}

export interface Target {
  url: string
  received: Received[]
  /** Status (and headers) of the next answers, in order; the last one repeats. `after`: answer only once it resolves. */
  answers: Array<{ status: number; headers?: Record<string, string>; body?: string; after?: Promise<unknown> } | 'stall'>
  /** Resolves once `n` requests have arrived in all. */
  arrived(n: number): Promise<void>
  close(): Promise<void>
}

export async function startTarget(): Promise<Target> {
  const received: Received[] = []
  const target = { received, answers: [{ status: 200 }] } as unknown as Target
  const waiting: Array<{ n: number; resolve: () => void }> = []
  let answered = 0
  target.arrived = (n) => new Promise<void>((resolve) => (received.length >= n ? resolve() : waiting.push({ n, resolve })))
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), answeredBefore: answered })
      for (const w of waiting.filter((x) => received.length >= x.n)) waiting.splice(waiting.indexOf(w), 1), w.resolve()
      const answer = target.answers.length > 1 ? target.answers.shift()! : target.answers[0]!
      if (answer === 'stall') return
      const reply = () => {
        answered++
        res.writeHead(answer.status, answer.headers).end(answer.body ?? 'ok')
      }
      if (answer.after) void answer.after.then(reply)
      else reply()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  target.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  target.close = async () => {
    server.closeAllConnections()
    await new Promise<void>((r) => server.close(() => r()))
  }
  return target
}
