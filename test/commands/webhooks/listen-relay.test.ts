import { afterEach, describe, expect, it } from 'vitest'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import Login from '../../../src/commands/login.js'
import Logout from '../../../src/commands/logout.js'
import ProfilesShow from '../../../src/commands/profiles/show.js'
import WebhooksListen from '../../../src/commands/webhooks/listen.js'
import { freshConfigDir } from '../../helpers/config.js'
import { startFakeRelay } from '../../helpers/fake-relay.js'
import { relayDelivery } from '../../helpers/fake-relay.js'
import { startListen } from '../../helpers/listen-harness.js'
import { runCommand } from '../../helpers/run-command.js'
import { chargeEvent, SECRET, startApp } from '../../helpers/webhooks.js'

const TOKEN = 'rly_cmd_token_4f9a2b7c1d8e3f60'
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

const nowS = () => Math.floor(Date.now() / 1000)

describe('svc webhooks listen --relay (piped)', () => {
  it('prints {"relay", "forward"} only after the first ready, lines with "via": "relay", status lines when disconnected, reconnected, and for a gap; a revoked token exits 3; the token is never printed', async () => {
    const relay = await startFakeRelay({ token: TOKEN })
    cleanups.push(() => relay.close())
    const app = await startApp()
    cleanups.push(() => app.close())
    const run = startListen(['--relay', relay.url, '--forward', app.url], { SVC_RELAY_TOKEN: TOKEN, SVC_WEBHOOK_SECRET: SECRET })
    const s1 = await relay.nextStream()
    // Connected, but the relay has not said ready: nothing on stdout yet.
    expect(run.stdout()).toBe('')
    s1.ready({ token: 'dev-alice', channel: 'staging', backlog: 2 })
    const [first] = await run.waitLines(1)
    expect(first).toEqual({ relay: relay.url, forward: `${app.url}/`, token: 'dev-alice', channel: 'staging', backlog: 2 })
    s1.deliver(relayDelivery({ seq: 1, body: chargeEvent('evt_r1', 'charge.paid'), secret: SECRET, signedAt: nowS() - 3600 }))
    const lines = await run.waitLines(2)
    expect(lines[1]).toMatchObject({ via: 'relay', eventId: 'evt_r1', outcome: 'forwarded', verified: true })
    await relay.waitAcks(1)
    s1.drop()
    expect((await run.waitLines(3))[2]).toMatchObject({ status: 'disconnected', relay: relay.url, retryInMs: 250 })
    expect(run.stderr()).toMatch(/Disconnected from the relay at .*Retrying in 250 ms/)
    const s2 = await relay.nextStream()
    s2.ready({ token: 'dev-alice', channel: 'staging', backlog: 0 })
    expect((await run.waitLines(4))[3]).toMatchObject({ status: 'ready', relay: relay.url, backlog: 0 })
    s2.gap({ lost: 4, fromSeq: 2, toSeq: 5, reason: 'retention' })
    expect((await run.waitLines(5))[4]).toEqual({ status: 'gap', relay: relay.url, lost: 4, fromSeq: 2, toSeq: 5, reason: 'retention' })
    expect(run.stderr()).toMatch(/GAP: the relay pruned 4 events/)
    s2.closing({ reason: 'revoked', message: 'token dev-alice was revoked' })
    expect(await run.done).toBe(3)
    expect(run.stderr()).toMatch(/The relay refused the token: token dev-alice was revoked/)
    expect(`${run.stdout()}${run.stderr()}`).not.toContain(TOKEN)
  })

  it('a relayed delivery that fails verification is not acked, and stderr says once that the secret most likely differs from the channel’s', async () => {
    const relay = await startFakeRelay({ token: TOKEN })
    cleanups.push(() => relay.close())
    const app = await startApp()
    cleanups.push(() => app.close())
    const run = startListen(['--relay', relay.url, '--forward', app.url], { SVC_RELAY_TOKEN: TOKEN, SVC_WEBHOOK_SECRET: 'whsec_not_the_channels_secret_0000' })
    const s = await relay.nextStream()
    s.ready()
    await run.waitLines(1)
    for (let seq = 1; seq <= 2; seq++) s.deliver(relayDelivery({ seq, body: chargeEvent(`evt_f${seq}`, 'charge.paid'), secret: SECRET, signedAt: nowS() }))
    const lines = await run.waitLines(3)
    expect(lines.slice(1).map((l) => [l.via, l.outcome, l.verification])).toEqual([
      ['relay', 'rejected', 'signature_mismatch'],
      ['relay', 'rejected', 'signature_mismatch'],
    ])
    expect(run.stderr().match(/failed verification/g)).toHaveLength(1)
    expect(run.stderr()).toMatch(/most likely differs from the channel's\. It is not acked/)
    expect(relay.acks).toEqual([])
    expect(app.received).toEqual([])
    await run.stop()
  })

  it('another listener taking the token stops this one with exit 1 and says why', async () => {
    const relay = await startFakeRelay({ token: TOKEN })
    cleanups.push(() => relay.close())
    const run = startListen(['--relay', relay.url, '--token', TOKEN, '--forward', '127.0.0.1:9', '--secret', SECRET])
    const s = await relay.nextStream()
    s.ready()
    await run.waitLines(1)
    s.closing({ reason: 'replaced', message: 'a newer stream for token dev-1 connected' })
    expect(await run.done).toBe(1)
    expect(run.stderr()).toMatch(/Another listener connected with this token/)
    expect(run.stderr()).toMatch(/--token is visible to other processes/)
  })

  it('refuses --token without a relay and a relay without a token, naming the flag', async () => {
    const noRelay = await runCommand(WebhooksListen, ['--forward', '127.0.0.1:9', '--token', TOKEN, '--secret', SECRET])
    expect(noRelay.exitCode).toBe(2)
    expect(noRelay.stderr).toMatch(/--token is the relay token: it needs --relay/)
    const noToken = await runCommand(WebhooksListen, ['--forward', '127.0.0.1:9', '--relay', 'http://127.0.0.1:9', '--secret', SECRET], { env: { SVC_RELAY_TOKEN: '' } })
    expect(noToken.exitCode).toBe(2)
    expect(noToken.stderr).toMatch(/No relay token/)
    const badUrl = await runCommand(WebhooksListen, ['--forward', '127.0.0.1:9', '--secret', SECRET], { env: { SVC_RELAY_URL: 'ftp://x', SVC_RELAY_TOKEN: TOKEN } })
    expect(badUrl.exitCode).toBe(2)
    expect(badUrl.stderr).toMatch(/SVC_RELAY_URL/)
    // Not loopback and not https: said before anything is sent (then the token is refused: no relay there).
    const cleartext = await runCommand(WebhooksListen, ['--forward', '127.0.0.1:9', '--secret', SECRET, '--relay', 'http://relay.invalid'], { env: { SVC_RELAY_TOKEN: '' } })
    expect(cleartext.stderr).toMatch(/http:\/\/relay\.invalid\/ is not https: the relay token and every event travel unencrypted/)
  })
})

describe('svc login --relay', () => {
  it('stores the relay and its token (0600, masked everywhere), and listen uses them with no flag or variable', async () => {
    const dir = freshConfigDir()
    const env = { SVC_CONFIG_DIR: dir, SVC_RELAY_URL: undefined, SVC_RELAY_TOKEN: undefined, SVC_API_KEY: undefined, SVC_PROFILE: undefined }
    const login = await runCommand(Login, ['--relay', 'http://127.0.0.1:1', '--relay-token-stdin', '--profile', 'team'], { stdin: `${TOKEN}\n`, env })
    expect(login.exitCode).toBe(0)
    expect(login.stderr).toMatch(/Relay stored in profile team: http:\/\/127\.0\.0\.1:1\/, token …3f60/)
    expect(`${login.stdout}${login.stderr}`).not.toContain(TOKEN)
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toContain(TOKEN)
    const show = await runCommand(ProfilesShow, ['team', '--json'], { env })
    expect(JSON.parse(show.stdout)).toMatchObject({ relayUrl: 'http://127.0.0.1:1/', relayToken: '…3f60' })
    expect(show.stdout).not.toContain(TOKEN)

    const relay = await startFakeRelay({ token: TOKEN })
    cleanups.push(() => relay.close())
    await runCommand(Login, ['--relay', relay.url, '--relay-token-stdin', '--profile', 'team'], { stdin: `${TOKEN}\n`, env })
    const run = startListen(['--forward', '127.0.0.1:9', '--profile', 'team'], { SVC_CONFIG_DIR: dir, SVC_WEBHOOK_SECRET: SECRET })
    const s = await relay.nextStream()
    expect(s.headers.authorization).toBe(`Bearer ${TOKEN}`)
    s.ready()
    expect((await run.waitLines(1))[0]).toMatchObject({ relay: relay.url })
    await run.stop()
    // logout forgets the token (a secret), keeps the relay's address.
    expect((await runCommand(Logout, ['--profile', 'team'], { env })).exitCode).toBe(0)
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(TOKEN)
    expect(JSON.parse((await runCommand(ProfilesShow, ['team', '--json'], { env })).stdout)).not.toHaveProperty('relayToken')
  })

  it('refuses an empty token and a relay URL that is not http(s), naming the flag', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const empty = await runCommand(Login, ['--relay', 'https://relay.example.com', '--relay-token-stdin'], { stdin: '\n', env })
    expect(empty.exitCode).toBe(2)
    expect(empty.stderr).toMatch(/No relay token given/)
    const bad = await runCommand(Login, ['--relay', 'ftp://relay.example.com', '--relay-token-stdin'], { stdin: `${TOKEN}\n`, env })
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toMatch(/--relay: the relay URL must be http or https/)
  })
})
