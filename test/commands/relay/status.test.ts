import { afterEach, describe, expect, it } from 'vitest'
import RelayStatus from '../../../src/commands/relay/status.js'
import { eventBody, openStream, postSigned, startTestRelay, type TestRelay } from '../../helpers/relay.js'
import { runCommand } from '../../helpers/run-command.js'

let relay: TestRelay
afterEach(async () => {
  await relay?.close()
})

describe('svc relay status', () => {
  it('shows channels, tokens connected or not, backlog and oldest unacked, ingest in the last hour', async () => {
    relay = await startTestRelay({ clock: { now: Date.now, advance: () => {}, set: () => {} } })
    await relay.addChannel('team')
    const alice = await relay.createToken('alice', 'team')
    await relay.createToken('bob', 'team')
    await postSigned(relay.url, 'team', eventBody('evt_1'))
    const s = await openStream(relay.url, alice)
    await s.next((f) => f.event === 'delivery')
    const r = await runCommand(RelayStatus, ['--data', relay.dir, '--json'])
    expect(r.exitCode).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ store: 'sqlite', channels: [{ name: 'team', deliveries: 1 }], ingestedLastHour: 1 })
    expect(out.tokens).toEqual([
      expect.objectContaining({ name: 'alice', connected: true, backlog: 1, oldestUnackedAgeSeconds: expect.any(Number) }),
      expect.objectContaining({ name: 'bob', connected: false, backlog: 1 }),
    ])
    s.close()
    await s.ended
    const text = await runCommand(RelayStatus, ['--data', relay.dir])
    expect(text.stdout).toContain('token bob (team): not connected, backlog 1')
  })
})
