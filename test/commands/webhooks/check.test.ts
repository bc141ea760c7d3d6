import { describe, expect, it } from 'vitest'
import WebhooksCheck from '../../../src/commands/webhooks/check.js'
import { startNaiveReceiver } from '../../fixtures/receivers/naive-receiver.js'
import { closedPort } from '../../fixtures/receivers/serve.js'
import { trackReceivers } from '../../helpers/receivers.js'
import { startSpecReceiver } from '../../fixtures/receivers/spec-receiver.js'
import { runCommand } from '../../helpers/run-command.js'

const secret = 'whsec_check_command_0123456789abcdef'
const ESC = '\u001B['

const track = trackReceivers()

describe('svc webhooks check', () => {
  it('exits 0 when every row passes; piped: one tab-separated row each, no colours, summary on stderr', async () => {
    const receiver = await track(startSpecReceiver({ secret }))
    const r = await runCommand(WebhooksCheck, [receiver.url, '--secret', secret])
    expect(r.exitCode).toBe(0)
    const lines = r.stdout.split('\n').slice(0, -1)
    expect(lines).toHaveLength(12)
    for (const line of lines) expect(line.split('\t')).toHaveLength(7)
    expect(lines[0]).toMatch(/^pass\tvalid\tvalid charge\.settled\t2xx within 10 s\t200 OK\t\d+\t$/)
    expect(r.stdout).not.toContain(ESC)
    expect(r.stderr).toContain('All 12 checks passed')
    expect(r.stderr).not.toContain(secret)
  })

  it('exits 1 against a naive handler; --json gives the report as data', async () => {
    const receiver = await track(startNaiveReceiver({ secret }))
    const r = await runCommand(WebhooksCheck, [receiver.url, '--json'], { env: { SVC_WEBHOOK_SECRET: secret } })
    expect(r.exitCode).toBe(1)
    const report = JSON.parse(r.stdout)
    expect(Object.keys(report).sort()).toEqual(['failed', 'passed', 'reachable', 'rows', 'url'])
    expect(report).toMatchObject({ url: receiver.url, passed: 4, failed: 8, reachable: true })
    for (const row of report.rows) {
      expect(Object.keys(row).sort()).toEqual(['expected', 'id', 'ms', 'name', 'note', 'observed', 'pass', 'status'])
    }
    expect(report.rows.find((row: { id: string }) => row.id === 'timestamp-old')).toMatchObject({ pass: false, status: 200, expected: 'not 2xx' })
    expect(r.stderr).toBe('')
  })

  it('draws a table with coloured marks and the time of each row on a terminal', async () => {
    const receiver = await track(startNaiveReceiver({ secret }))
    const r = await runCommand(WebhooksCheck, [receiver.url, '--secret', secret], { tty: true })
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toMatch(/DELIVERY\s+EXPECTED\s+TIME\s+OBSERVED/)
    expect(r.stdout).toContain(`${ESC}32m✓`)
    expect(r.stdout).toContain('✗')
    expect(r.stdout).toMatch(/same event again \(same id\)\s+2xx within 10 s\s+\d+ ms\s+\S*409 Conflict/)
    expect(r.stderr).toContain('8 of 12 checks failed')
  })

  it('exits 7 and says so plainly when nothing listens at the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/webhooks`
    const r = await runCommand(WebhooksCheck, [url, '--secret', secret])
    expect(r.exitCode).toBe(7)
    expect(r.stdout.split('\n')[0]).toContain(`could not connect to ${url}: connection refused`)
    expect(r.stderr).toContain(`Could not connect to ${url}: connection refused`)
    expect(r.stderr).toContain('Is the handler running')
  })

  it('takes the secret from SVC_WEBHOOK_SECRET and a URL without a scheme', async () => {
    const receiver = await track(startSpecReceiver({ secret }))
    const r = await runCommand(WebhooksCheck, [receiver.url.replace('http://', ''), '--json'], { env: { SVC_WEBHOOK_SECRET: secret } })
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ url: receiver.url, failed: 0 })
  })

  it('exits 2 naming the secret when none is configured, before sending anything', async () => {
    const receiver = await track(startSpecReceiver({ secret }))
    const r = await runCommand(WebhooksCheck, [receiver.url])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('secret')
    expect(receiver.received).toEqual([])
  })

  it('exits 2 for a URL that is not http(s)', async () => {
    const r = await runCommand(WebhooksCheck, ['ftp://example.com/hook', '--secret', secret])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('http or https')
  })
})
