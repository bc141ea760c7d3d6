/** The body as a JSON object for routing, or undefined (routing then sees no fields). */
export function parseEvent(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'))
  } catch {
    return undefined
  }
}
