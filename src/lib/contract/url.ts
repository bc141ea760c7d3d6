/** An absolute http(s) URL with a host: what a webhook endpoint may be (a rule of the contract, used by the CLI and the sandbox). */
export function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== ''
  } catch {
    return false
  }
}
