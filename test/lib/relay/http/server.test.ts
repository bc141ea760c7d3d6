import { afterEach, describe, expect, it } from 'vitest'
import { ack, eventBody, openStream, postSigned, startTestRelay, type TestRelay } from '../../../helpers/relay.js'

let relay: TestRelay
afterEach(async () => {
  await relay?.close()
})

describe('relay server: ingress, stream, ack', () => {
  it('stores a verified delivery before answering 2xx and streams it to the token with its raw bytes', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    const body = eventBody('evt_1')
    const posted = await postSigned(relay.url, 'team', body)
    expect(posted.status).toBe(200)
    const stream = await openStream(relay.url, token)
    expect(stream.status).toBe(200)
    const ready = await stream.next((f) => f.event === 'ready')
    expect(ready).toMatchObject({ data: { token: 'alice', channel: 'team', backlog: 1 } })
    const d = await stream.next((f) => f.event === 'delivery')
    if (d.event !== 'delivery') throw new Error('no delivery')
    expect(Buffer.from(d.data.body, 'base64').toString('utf8')).toBe(body)
    expect(d.data.attempt).toBe(1)
    expect(d.data.headers['x-svc-event-id']).toBe('evt_1')
    expect((await ack(relay.url, token, [d.data.seq])).status).toBe(204)
    // Live: a new post reaches the open stream.
    await postSigned(relay.url, 'team', eventBody('evt_2'))
    const live = await stream.next((f) => f.event === 'delivery')
    expect(live.event === 'delivery' && live.data.headers['x-svc-event-id']).toBe('evt_2')
    stream.close()
  })
})
