/**
 * `localhost:3000/webhooks` → `http://localhost:3000/webhooks`: an address typed without a scheme
 * is taken as plain http (a local app), one with any scheme is left for the caller to judge.
 */
export function withHttpScheme(text: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text.replace(/^\/\//, '')}`
}
