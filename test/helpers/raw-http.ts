/**
 * Raw HTTP/1.1 over a TCP socket, for hostile-input tests: sends exactly the bytes given
 * (duplicated headers, bad framing, non-UTF-8, slow trickles) and parses what comes back,
 * including "nothing" when the server cuts the connection.
 */
import { connect, type Socket } from 'node:net'
import nock from 'nock'
import { afterAll, beforeAll } from 'vitest'

/**
 * For the file that calls it: raw sockets reach the server byte for byte. test/setup.ts's nock
 * interceptor parses socket writes as HTTP and holds back an unfinished request, which hides
 * exactly what these tests send (slow and broken requests). These files only talk to loopback
 * servers they started themselves.
 */
export function useRawSockets(): void {
  beforeAll(() => {
    nock.restore()
  })
  afterAll(() => {
    nock.activate()
  })
}

export interface RawReply {
  /** 0 when the connection closed without an answer. */
  status: number
  headers: Record<string, string>
  body: string
  /** The body parsed as JSON, when it is JSON. */
  json?: { error?: { code?: unknown; message?: unknown; requestId?: unknown; details?: unknown } } & Record<string, unknown>
}

/** host:port of an http://127.0.0.1:PORT URL. */
export function addressOf(url: string): { host: string; port: number } {
  const u = new URL(url)
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port) }
}

/** Parses the first response in `data` (Content-Length or close-delimited bodies). */
export function parseReply(data: Buffer): RawReply {
  const text = data.toString('latin1')
  const end = text.indexOf('\r\n\r\n')
  if (!text.startsWith('HTTP/1.1 ') || end < 0) return { status: 0, headers: {}, body: '' }
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const l of lines) {
    const i = l.indexOf(':')
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim()
  }
  let bodyBytes = data.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'))
  if (headers['content-length'] !== undefined) bodyBytes = bodyBytes.subarray(0, Number(headers['content-length']))
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) bodyBytes = dechunk(bodyBytes)
  const body = bodyBytes.toString('utf8')
  let json: RawReply['json']
  try {
    json = JSON.parse(body)
  } catch {
    json = undefined
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body, json }
}

/** The payload of a chunked body (as much of it as arrived). */
function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const eol = data.indexOf('\r\n', at)
    if (eol < 0) break
    const size = Number.parseInt(data.subarray(at, eol).toString('latin1'), 16)
    if (!size) break
    parts.push(data.subarray(eol + 2, eol + 2 + size))
    at = eol + 2 + size + 2
  }
  return Buffer.concat(parts)
}

/**
 * Sends `chunks` (each written as is, `gapMs` apart) and resolves with the first answer, or
 * status 0 when the server closed the connection without one. Gives up after `timeoutMs`.
 */
export function rawRequest(url: string, chunks: Array<string | Buffer>, opts: { gapMs?: number; timeoutMs?: number } = {}): Promise<RawReply> {
  const { host, port } = addressOf(url)
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host, port })
    const received: Buffer[] = []
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve(parseReply(Buffer.concat(received)))
    }
    const timer = setTimeout(() => {
      done = true
      socket.destroy()
      reject(new Error(`no answer and no close within ${opts.timeoutMs ?? 5000} ms`))
    }, opts.timeoutMs ?? 5000)
    socket.on('data', (c: Buffer) => {
      received.push(c)
      const reply = parseReply(Buffer.concat(received))
      if (reply.status && (reply.headers['content-length'] === undefined || Buffer.byteLength(reply.body) >= Number(reply.headers['content-length']))) finish()
    })
    socket.on('close', finish)
    socket.on('error', () => finish())
    // once: under test/setup.ts's interceptor 'connect' can fire twice, which would send everything twice.
    socket.once('connect', async () => {
      for (const c of chunks) {
        if (done || socket.destroyed) return
        socket.write(c)
        if (opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs))
      }
    })
    void reject
  })
}

/** A request head with the given lines; `Host` and `Connection: close` are added unless given. */
export function head(method: string, path: string, lines: string[] = []): string {
  const has = (name: string) => lines.some((l) => l.toLowerCase().startsWith(`${name}:`))
  const all = [...lines]
  if (!has('host')) all.unshift('Host: 127.0.0.1')
  if (!has('connection')) all.push('Connection: close')
  return `${method} ${path} HTTP/1.1\r\n${all.join('\r\n')}\r\n\r\n`
}

/**
 * Sends half a request head and never closes its side (a slow-loris client), reads the server's
 * answer, then probes until the server has destroyed the socket (the next bytes are refused).
 * Resolves with the answer and whether the socket was let go within `withinMs`.
 */
export async function halfHeadLetGo(url: string, lines: string[] = [], withinMs = 4000): Promise<{ answer: string; letGo: boolean }> {
  const { host, port } = addressOf(url)
  const socket = connect({ port, host, allowHalfOpen: true })
  let answer = ''
  socket.setEncoding('latin1')
  socket.on('data', (d: string) => (answer += d))
  const gone = new Promise<boolean>((resolve) => {
    socket.once('error', () => resolve(true))
    socket.once('close', () => resolve(true))
  })
  socket.write(`GET / HTTP/1.1\r\nHost: x\r\n${lines.map((l) => `${l}\r\n`).join('')}X-Half: `)
  await new Promise((resolve) => socket.once('end', resolve))
  // The server said its last word; once it destroys the socket, the next bytes are refused (RST).
  const probe = setInterval(() => socket.write('x'), 100)
  const held = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), withinMs))
  try {
    return { answer, letGo: await Promise.race([gone, held]) }
  } finally {
    clearInterval(probe)
    socket.destroy()
  }
}
