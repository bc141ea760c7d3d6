/**
 * Whether a host name or address stays on this machine: `localhost`, 127.0.0.0/8, `::1`, and
 * 127.0.0.0/8 written as an IPv4-mapped IPv6 address. One rule for the servers' --host warnings
 * and for the plain-http warning of API commands.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true
  const v4 = h.startsWith('::ffff:') ? h.slice('::ffff:'.length) : h
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4)
}

/** Whether a connection's peer address (`socket.remoteAddress`) is this machine. */
export function isLoopbackPeer(address: string | undefined): boolean {
  return address !== undefined && address !== 'localhost' && isLoopbackHost(address)
}

/** Whether a URL (a base URL: where a local sandbox runs) points at this machine. */
export function isLoopbackUrl(url: string): boolean {
  return isLoopbackHost(new URL(url).hostname)
}
