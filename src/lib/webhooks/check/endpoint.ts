/**
 * The endpoint to check: `localhost:3000/webhooks` → `http://localhost:3000/webhooks`; http(s)
 * only. (Same rules as the listener's --forward, with messages that name the URL argument.)
 */
import { UsageError } from '../../errors.js'
import { withHttpScheme } from '../../net/url.js'

const HINT = 'Give the URL your handler listens on, e.g. http://localhost:3000/webhooks.'

export function parseEndpointUrl(input: string): URL {
  const text = input.trim()
  if (!text) throw new UsageError('The URL to check is empty.', { field: 'url', hint: HINT })
  const withScheme = withHttpScheme(text)
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    throw new UsageError(`"${input}" is not a URL.`, { field: 'url', hint: HINT })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`The URL to check must use http or https, not ${url.protocol.replace(':', '')}.`, { field: 'url', hint: HINT })
  }
  return url
}
