/**
 * A tiny loopback TCP proxy for fault tests: in front of PostgreSQL (cut the relay's database for a
 * while) or in front of relay instances (a load balancer: each new connection goes to the next
 * live target). `cut()` drops every open connection and refuses new ones until `restore()`.
 */
import { createServer, type Server, type Socket, connect } from 'node:net'

export interface TcpProxy {
  port: number
  url(scheme?: string): string
  /** Closes every connection and refuses new ones (connections are accepted and destroyed at once). */
  cut(): void
  restore(): void
  /** Replaces the targets (ports on 127.0.0.1); new connections go round-robin over them. */
  setTargets(ports: number[]): void
  close(): Promise<void>
}

export async function startTcpProxy(targets: number[]): Promise<TcpProxy> {
  let ports = [...targets]
  let next = 0
  let down = false
  const open = new Set<Socket>()
  const server: Server = createServer((inbound) => {
    if (down || ports.length === 0) {
      inbound.destroy()
      return
    }
    const port = ports[next++ % ports.length]!
    const outbound = connect(port, '127.0.0.1')
    open.add(inbound)
    open.add(outbound)
    const end = () => {
      inbound.destroy()
      outbound.destroy()
      open.delete(inbound)
      open.delete(outbound)
    }
    inbound.on('error', end).on('close', end)
    outbound.on('error', end).on('close', end)
    inbound.pipe(outbound)
    outbound.pipe(inbound)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    port,
    url: (scheme = 'http') => `${scheme}://127.0.0.1:${port}`,
    cut() {
      down = true
      for (const s of open) s.destroy()
      open.clear()
    },
    restore() {
      down = false
    },
    setTargets(p) {
      ports = [...p]
    },
    close() {
      for (const s of open) s.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
