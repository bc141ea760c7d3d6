import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import SandboxAccountSet from '../../../src/commands/sandbox/account/set.js'
import SandboxClockAdvance from '../../../src/commands/sandbox/clock/advance.js'
import SandboxDeliveries from '../../../src/commands/sandbox/deliveries/index.js'
import SandboxKeysList from '../../../src/commands/sandbox/keys/list.js'
import SandboxWebhookSet from '../../../src/commands/sandbox/webhook/set.js'
import SandboxWebhookShow from '../../../src/commands/sandbox/webhook/show.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { formatLocalTime } from '../../../src/lib/domain/time.js'
import { visibleWidth } from '../../../src/lib/output/table.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { runCommand } from '../../helpers/run-command.js'
import { startTarget, type Target } from '../../helpers/delivery-target.js'

const START = Date.parse('2026-11-22T12:00:00.000Z')
let sb: RunningSandbox
let target: Target

const widest = (text: string) => Math.max(...text.split('\n').map(visibleWidth))

beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true, clock: new SandboxClock({ manual: true, start: START }) })
  target = await startTarget()
  const store = await ProfileStore.open()
  store.save('sandbox', { apiKey: sb.testKey, baseUrl: sb.baseUrl, webhookSecret: sb.webhookSecret })
  // A long URL and failing answers: the widest rows a delivery log gets.
  target.answers = [{ status: 503 }]
  await runCommand(SandboxWebhookSet, [`${target.url}/a/rather/long/path/to/the/merchant/webhook/handler?tenant=acme-industries`])
  for (let i = 0; i < 3; i++) await fetch(`${sb.baseUrl}/v1/webhooks/test`, { method: 'POST', headers: { authorization: `Bearer ${sb.testKey}` } })
  await runCommand(SandboxClockAdvance, ['1s'])
})

afterAll(async () => {
  await sb.close()
  await target.close()
})

describe('panel tables on a terminal', () => {
  it.each([80, 100, 120])('deliveries fit in %i columns', async (columns) => {
    const r = await runCommand(SandboxDeliveries, [], { tty: true, columns })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('EVENT ID')
    expect(r.stdout.trim().split('\n')).toHaveLength(4)
    expect(widest(r.stdout)).toBeLessThanOrEqual(columns)
  })

  it('keys list fits the terminal and shows creation times in local Brazilian format with the zone', async () => {
    const { data } = JSON.parse((await runCommand(SandboxKeysList, ['--json'])).stdout) as { data: Array<{ createdAt: string }> }
    const wide = await runCommand(SandboxKeysList, [], { tty: true, columns: 100 })
    expect(wide.stdout).toContain(formatLocalTime(data[0]!.createdAt))
    expect(wide.stdout).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} \(UTC/)
    const narrow = await runCommand(SandboxKeysList, [], { tty: true, columns: 50 })
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(50)
    // Piped: raw RFC 3339.
    expect((await runCommand(SandboxKeysList, [])).stdout).toContain(`\t${data[0]!.createdAt}\n`)
  })

  it('account settings read as 2,50% and R$ 0,50 on a terminal; raw bps and centavos piped and in --json', async () => {
    const tty = await runCommand(SandboxAccountSet, ['--fee-bps', '250', '--fee-fixed', '50', '--qr-validity', '15m', '--no-color'], { tty: true })
    expect(tty.stdout).toMatch(/Fee\s+2,50%/)
    expect(tty.stdout).toMatch(/Fixed fee\s+R\$ 0,50/)
    expect(tty.stdout).toMatch(/QR validity\s+15 min/)
    const piped = await runCommand(SandboxAccountSet, ['--fee-bps', '250'])
    expect(piped.stdout).toContain('feeBps\t250\nfeeFixedInCents\t50\n')
    const json = JSON.parse((await runCommand(SandboxAccountSet, ['--fee-bps', '199', '--json'])).stdout)
    expect(json).toMatchObject({ feeBps: 199, feeFixedInCents: 50, qrValiditySeconds: 900 })
  })

  it('clock advance and webhook show print local times on a terminal, RFC 3339 piped', async () => {
    const tty = await runCommand(SandboxClockAdvance, ['1s', '--no-color'], { tty: true })
    const now = JSON.parse((await runCommand(SandboxClockAdvance, ['1s', '--json'])).stdout).now as string
    expect(tty.stdout).toContain(formatLocalTime(new Date(Date.parse(now) - 1000).toISOString()))
    expect((await runCommand(SandboxClockAdvance, ['1s'])).stdout).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z\n$/)

    target.answers = [{ status: 200 }]
    await fetch(`${sb.baseUrl}/v1/webhooks/test`, { method: 'POST', headers: { authorization: `Bearer ${sb.testKey}` } })
    await runCommand(SandboxClockAdvance, ['1s'])
    const { lastSuccessAt } = JSON.parse((await runCommand(SandboxWebhookShow, ['--json'])).stdout) as { lastSuccessAt: string }
    const show = await runCommand(SandboxWebhookShow, ['--no-color'], { tty: true })
    expect(show.stdout).toMatch(new RegExp(`Last success\\s+${formatLocalTime(lastSuccessAt).replace(/[()+]/g, '\\$&')}`))
  })
})
