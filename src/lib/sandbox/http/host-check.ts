/**
 * Which Host headers the sandbox's local-only surfaces answer (the web panel, and the start's
 * nonce at `/_sandbox/info`), against DNS rebinding: a page of another site whose name was made
 * to resolve to 127.0.0.1 sends its own name as Host. Allowed: `127.0.0.1`, `localhost` or
 * `[::1]` (any case), or the address the sandbox itself listens on (the host of the URL it
 * prints, e.g. with `--host 127.0.0.2`), always with the sandbox's own port. Nothing else, not
 * even another 127.x address: the README's list is the code's list.
 */
const NAMES = new Set(['127.0.0.1', 'localhost', '[::1]'])

export function isSandboxHost(host: string | undefined, port: number, ownHost?: string): boolean {
  if (!host) return false
  const colon = host.lastIndexOf(':')
  if (colon < 0 || host.slice(colon + 1) !== String(port)) return false
  const name = host.slice(0, colon).toLowerCase()
  return NAMES.has(name) || (ownHost !== undefined && ownHost !== '' && name === ownHost.toLowerCase())
}
