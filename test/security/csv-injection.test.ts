/**
 * A CSV no spreadsheet runs (issue 36.9–11, OWASP "CSV injection"). An attacker controls text
 * that ends up in a cell: an unsigned post to the listener is logged with the event id it
 * claims, a payer types a charge's description. A NUL (or any control character, or spaces)
 * before `=` got past the formula guard and LibreOffice ran `^@=1+1`; `--separator 0` ran the
 * digits of amounts together; Excel read a BOM-less file in the system's code page.
 */
import nock from 'nock'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ChargesList from '../../src/commands/charges/list.js'
import WebhooksEvents from '../../src/commands/webhooks/events.js'
import { EventStore } from '../../src/lib/webhooks/event-store.js'
import { WebhookListener } from '../../src/lib/webhooks/listener.js'
import { forwarding, SECRET, startApp } from '../helpers/webhooks.js'
import { BASE_URL, charge, TEST_KEY } from '../helpers/api-fixtures.js'
import { runCommand } from '../helpers/run-command.js'

const env = { SVC_API_KEY: TEST_KEY, SVC_BASE_URL: BASE_URL }
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
const BARE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

/** What a spreadsheet would take for a formula: a cell whose first character after whitespace and control characters is = + - @. */
function formulaCells(csv: string, separator = ','): string[] {
  const cells: string[] = []
  // A small RFC 4180 reader: quoted cells may hold the separator, quotes and line ends.
  let i = 0
  while (i < csv.length) {
    let cell = ''
    if (csv[i] === '"') {
      i++
      for (; i < csv.length; i++) {
        if (csv[i] === '"' && csv[i + 1] === '"') {
          cell += '"'
          i++
        } else if (csv[i] === '"') {
          i++
          break
        } else cell += csv[i]
      }
    } else {
      while (i < csv.length && csv[i] !== separator && csv[i] !== '\r') cell += csv[i++]
    }
    cells.push(cell)
    if (csv[i] === separator) i++
    else if (csv[i] === '\r') i += 2
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: what LibreOffice skips before a formula
  return cells.filter((c) => /^[\s\u0000-\u001f\u007f-\u009f]*[=+\-@]/.test(c))
}

const HOSTILE = ['\u0000=1+1', '\u0000\u0000 =1+1', '\u001b=HYPERLINK("http://x")', ' \t=1+1', '\u00a0=1+1', '\r\n@SUM(A1)', '\u007f-2+3', '\u0085+1']

describe('charges list --csv: a description that hides a formula behind control characters', () => {
  it.each(HOSTILE)('%j: neutralised with a leading quote, no control character bare', async (description) => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .reply(200, { data: [charge({ description, payer: { taxNumber: '***.456.789-**', name: description } })], hasMore: false })
    const r = await runCommand(ChargesList, ['--all', '--csv'], { env })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(formulaCells(r.stdout)).toEqual([])
    // Tab, CR and LF are data (quoted); no other control character reaches the file.
    expect(r.stdout).not.toMatch(BARE_CONTROL)
    // The description and payer name cells, each with its leading quote.
    expect(r.stdout.split('\r\n').slice(1).join('\r\n').match(/,"?'/g)).toHaveLength(2)
  })

  it('the NUL is written as a visible escape, the text after it kept', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .reply(200, { data: [charge({ description: '\u0000=1+1' })], hasMore: false })
    const r = await runCommand(ChargesList, ['--all', '--csv'], { env })
    expect(r.stdout.split('\r\n')[1]).toContain(",'\\x00=1+1,")
  })
})

describe('webhooks events --csv: an unsigned post whose id hides a formula', () => {
  let store: EventStore
  beforeAll(async () => {
    store = await EventStore.open()
    for (const [i, id] of HOSTILE.entries()) {
      store.record({
        receivedAt: new Date(Date.now() - (i + 1) * 1000).toISOString(),
        source: 'service',
        eventId: id,
        type: 'charge.paid',
        headers: {},
        body: new TextEncoder().encode(JSON.stringify({ id })),
        verification: 'failed',
        verifyReason: `no signature for ${id}`,
        outcome: 'rejected',
        answeredStatus: 400,
        forwardUrl: 'http://localhost:3000/',
      } as never)
    }
    await store.committed()
  })
  afterAll(() => store.close())

  it('no cell a spreadsheet would run, no control character bare', async () => {
    const r = await runCommand(WebhooksEvents, ['--all', '--csv'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout.split('\r\n').length).toBeGreaterThan(HOSTILE.length)
    expect(formulaCells(r.stdout)).toEqual([])
    expect(r.stdout).not.toMatch(BARE_CONTROL)
  })
})

describe("webhooks events --csv after a real unsigned post (the issue's trial)", () => {
  it('a post with "id":"\\u0000=1+1" and no signature is logged, and its row runs nothing', async () => {
    const app = await startApp()
    const store = await EventStore.open()
    const f = forwarding(`127.0.0.1:${app.port}/webhooks`)
    const listener = new WebhookListener({ ...f, secrets: [SECRET], store, port: 0 })
    try {
      const url = await listener.start()
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: '\u0000=1+1', type: 'charge.paid' }) })
      expect(res.status).toBeGreaterThanOrEqual(400)
      await store.committed()
      const r = await runCommand(WebhooksEvents, ['--all', '--csv'])
      expect(r.exitCode, r.stderr).toBe(0)
      expect(r.stdout).toContain("'\\x00=1+1")
      expect(formulaCells(r.stdout)).toEqual([])
      expect(r.stdout).not.toMatch(BARE_CONTROL)
    } finally {
      await listener.close()
      await f.forwarder.close()
      store.close()
      await app.close()
    }
  })
})

describe('--separator (issue 36.10)', () => {
  it.each(['0', '7', 'a', 'Z', '.', '-', '+', ':', ' ', '"', '\\n', ';;', 'é'])('%j is refused: exit 2 naming --separator, nothing sent', async (sep) => {
    const scope = nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .reply(200, { data: [charge()], hasMore: false })
    const r = await runCommand(ChargesList, ['--all', '--csv', '--separator', sep], { env })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--separator')
    expect(r.stdout).toBe('')
    expect(scope.isDone()).toBe(false)
    nock.cleanAll()
  })

  it.each([
    [',', ','],
    [';', ';'],
    ['tab', '\t'],
    ['|', '|'],
  ])('%j is accepted; a cell holding any of , ; tab | or a quote is quoted whatever the separator', async (flag, sep) => {
    const description = 'a,b;c\td|e'
    nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .reply(200, { data: [charge({ description, externalId: 'say "hi"' })], hasMore: false })
    const r = await runCommand(ChargesList, ['--all', '--csv', '--separator', flag], { env })
    expect(r.exitCode, r.stderr).toBe(0)
    const row = r.stdout.split('\r\n')[1]!
    expect(row).toContain(`${sep}"a,b;c\td|e"${sep}`)
    expect(row).toContain(`${sep}"say ""hi"""${sep}`)
    expect(row).toContain(`${sep}1500${sep}80${sep}1420${sep}`)
  })
})

describe('--bom (issue 36.11)', () => {
  it('begins the file with a UTF-8 BOM before the header, accents written as UTF-8', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .reply(200, { data: [charge({ payer: { taxNumber: '***.456.789-**', name: 'JOSÉ ÇÃO' } })], hasMore: false })
    const r = await runCommand(ChargesList, ['--all', '--csv', '--bom'], { env })
    expect(r.exitCode, r.stderr).toBe(0)
    const bytes = Buffer.from(r.stdout, 'utf8')
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(r.stdout.slice(1).startsWith('id,externalId,')).toBe(true)
    expect(bytes.includes(Buffer.from('JOSÉ ÇÃO', 'utf8'))).toBe(true)
  })

  it('without --bom, no BOM (a pipe into another tool reads the header as written)', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .reply(200, { data: [charge()], hasMore: false })
    const r = await runCommand(ChargesList, ['--all', '--csv'], { env })
    expect(r.stdout.startsWith('id,')).toBe(true)
  })

  it('--bom without --csv is a usage error', async () => {
    const r = await runCommand(ChargesList, ['--bom'], { env })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--csv')
  })
})
