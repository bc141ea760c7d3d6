/**
 * The web panel's live updates over Server-Sent Events (`GET /panel/events`): an event `change`
 * when something changed, at most ~8 a second however much changes, and a comment every 15 s
 * so idle connections stay open. The pages' script refetches their body on `change`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

/** How long changes are gathered into one `change` event. */
const COALESCE_MS = 120
const HEARTBEAT_MS = 15_000

export class LiveStream {
  private readonly streams = new Set<ServerResponse>()
  private pending?: NodeJS.Timeout
  private heartbeat?: NodeJS.Timeout

  /** Opens a stream on this answer; it ends when the browser goes away or the panel closes. */
  open(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' })
    res.write(': connected\n\n')
    this.streams.add(res)
    this.heartbeat ??= setInterval(() => {
      for (const s of this.streams) s.write(': keep-alive\n\n')
    }, HEARTBEAT_MS)
    this.heartbeat.unref()
    req.once('close', () => this.streams.delete(res))
  }

  /** Something changed (an event, a delivery, a setting): live pages refresh, at most ~8 times a second. */
  changed(): void {
    if (this.streams.size === 0 || this.pending) return
    this.pending = setTimeout(() => {
      this.pending = undefined
      for (const s of this.streams) s.write('event: change\ndata: 1\n\n')
    }, COALESCE_MS)
    this.pending.unref()
  }

  close(): void {
    clearTimeout(this.pending)
    clearInterval(this.heartbeat)
    for (const s of this.streams) s.end()
    this.streams.clear()
  }
}
