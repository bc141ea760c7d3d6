import nock from 'nock'
import { describe, expect, it } from 'vitest'
import ChargesCreate from '../../../src/commands/charges/create.js'
import { stripAnsi } from '../../../src/lib/output/color.js'
import { commandRunner } from '../../helpers/run-command.js'
import { instantRetries } from '../../helpers/instant-retries.js'
import { ANSI, BASE_URL, charge, errorBody, fakeWaitClock, liveEnv, testEnv, trackUnmatched } from '../../helpers/charges.js'

const sleeps: number[] = []
const runCommand = commandRunner(instantRetries(sleeps))

const CPF = '529.982.247-25'

describe('svc charges create', () => {
  it('piped: sends the validated body with an Idempotency-Key and prints only the id', async () => {
    const keys: string[] = []
    nock(BASE_URL)
      .post('/v1/charges', { amountInCents: 1500, payerTaxNumber: CPF, externalId: 'order-1', metadata: { sku: 'A=1', cart: '77' } })
      .reply((req: Request) => {
        keys.push(String(req.headers.get('idempotency-key')))
        return [201, charge({ externalId: 'order-1' })]
      })
    const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--external-id', 'order-1', '--metadata', 'sku=A=1', '--metadata', 'cart=77'], { env: testEnv })
    expect(r.stderr).toBe('')
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe('65a1f0c2b3d4e5f60718293a\n')
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('sends the Idempotency-Key the user gave', async () => {
    nock(BASE_URL, { reqheaders: { 'idempotency-key': 'order-1-try' } })
      .post('/v1/charges')
      .reply(201, charge())
    const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--idempotency-key', 'order-1-try', '-q'], { env: testEnv })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe('65a1f0c2b3d4e5f60718293a\n')
  })

  it('on a terminal: QR, copy-and-paste string, gross/fee/net, expiry, id, status and the TEST badge', async () => {
    nock(BASE_URL).post('/v1/charges').reply(201, charge())
    const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF], { env: testEnv, tty: true })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('TEST')
    expect(r.stdout).toContain('Charge created')
    expect(r.stdout).toMatch(/[▀▄█]/)
    expect(r.stdout).toContain(charge().pix.qrCode)
    expect(r.stdout).toContain('R$ 15,00')
    expect(r.stdout).toContain('R$ 0,80')
    expect(r.stdout).toContain('R$ 14,20')
    expect(stripAnsi(r.stdout)).toMatch(/Expires\s+\S*\d{2}\/11\/2026 \d{2}:\d{2}/)
    expect(r.stdout).toContain('65a1f0c2b3d4e5f60718293a')
    expect(r.stdout).toContain('awaiting_payment')
    expect(r.stdout).not.toContain('idempotent replay')
  })

  it('says when the API returned an existing charge (200, idempotent replay)', async () => {
    nock(BASE_URL).post('/v1/charges').reply(200, charge())
    const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--external-id', 'order-1'], { env: testEnv, tty: true })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/existing charge returned \(idempotent replay\)/i)
  })

  describe('a replay that returns a charge no longer payable (issue 16 item 1)', () => {
    for (const status of ['canceled', 'expired', 'settled'] as const) {
      it(`on a terminal: no QR for a ${status} charge, a line on stderr, exit 5`, async () => {
        nock(BASE_URL)
          .post('/v1/charges')
          .reply(200, charge({ status, externalId: 'ord-1' }))
        const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--external-id', 'ord-1'], { env: testEnv, tty: true })
        expect(r.exitCode).toBe(5)
        expect(r.stdout).not.toMatch(/[▀▄█]/)
        expect(r.stdout).not.toContain(charge().pix.qrCode)
        expect(stripAnsi(r.stdout)).toContain(`idempotent replay): ${status}, not payable`)
        expect(r.stderr).toContain(`The existing charge for external id "ord-1" (65a1f0c2b3d4e5f60718293a)`)
        expect(r.stderr).toContain('No QR shown; exit 5')
      })
    }

    it('piped: the id on stdout, the reason on stderr, exit 5', async () => {
      nock(BASE_URL)
        .post('/v1/charges')
        .reply(200, charge({ status: 'canceled', externalId: 'ord-1' }))
      const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--external-id', 'ord-1'], { env: testEnv })
      expect(r.exitCode).toBe(5)
      expect(r.stdout).toBe('65a1f0c2b3d4e5f60718293a\n')
      expect(r.stderr).toMatch(/is canceled: its QR stays technically payable/)
    })

    it('--json still prints the charge, exit 5', async () => {
      nock(BASE_URL)
        .post('/v1/charges')
        .reply(200, charge({ status: 'expired' }))
      const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--json'], { env: testEnv })
      expect(r.exitCode).toBe(5)
      expect(JSON.parse(r.stdout).status).toBe('expired')
    })

    it('--wait for the state the charge already is in: exit 0', async () => {
      nock(BASE_URL)
        .post('/v1/charges')
        .reply(200, charge({ status: 'settled' }))
      nock(BASE_URL)
        .get('/v1/charges/65a1f0c2b3d4e5f60718293a')
        .optionally()
        .reply(200, charge({ status: 'settled' }))
      const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--wait', 'settled', '-q'], { env: testEnv })
      expect(r.exitCode).toBe(0)
    })

    it('a replayed charge still awaiting payment keeps its QR, exit 0', async () => {
      nock(BASE_URL).post('/v1/charges').reply(200, charge())
      const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF], { env: testEnv, tty: true })
      expect(r.exitCode).toBe(0)
      expect(r.stdout).toMatch(/[▀▄█]/)
      expect(r.stderr).toBe('')
    })
  })

  it('--json prints the Charge exactly as returned, even piped', async () => {
    const returned = { ...charge(), riskScore: 3 }
    nock(BASE_URL).post('/v1/charges').reply(201, returned)
    const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--json'], { env: testEnv })
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual(returned)
    expect(r.stdout).not.toMatch(ANSI)
  })

  it('the external_id_conflict hint names the order id itself, not a literal ID placeholder (issue 16 item 20)', async () => {
    nock(BASE_URL)
      .post('/v1/charges')
      .reply(409, errorBody('external_id_conflict', 'Outro corpo para o mesmo externalId', { requestId: 'req_1' }))
    const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--external-id', "ord 1's"], { env: testEnv })
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toContain("`svc charges list --external-id 'ord 1'\\''s'`")
    expect(r.stderr).not.toContain('--external-id ID')
  })

  it('maps API errors to their exit codes (409 external_id_conflict → 5)', async () => {
    nock(BASE_URL)
      .post('/v1/charges')
      .reply(409, errorBody('external_id_conflict', 'Outro corpo para o mesmo externalId', { requestId: 'req_1' }))
    const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--external-id', 'order-1'], { env: testEnv })
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toContain('external_id_conflict')
    expect(r.stderr).toContain('req_1')
  })
})

describe('svc charges create: local validation (exit 2, the field named, nothing sent)', () => {
  const cases: Array<[string, string[], string]> = [
    ['amount below the minimum', ['--amount', '999'], '--amount (amountInCents): must be at least 1000'],
    ['amount above the maximum', ['--amount', '500001'], '--amount (amountInCents): must be at most 500000'],
    ['amount in reais', ['--amount', '15.00'], '--amount (amountInCents): must be an integer number of centavos'],
    ['amount in exponent form', ['--amount', '1e3'], '--amount (amountInCents): must be an integer number of centavos'],
    ['amount not a number', ['--amount', 'abc'], '--amount (amountInCents): must be an integer number of centavos'],
    ['tax number with bad check digits', ['--amount', '1500', '--payer-tax-number', '123.456.789-00'], '--payer-tax-number (payerTaxNumber): is not a valid CPF or CNPJ'],
    ['payer name too long', ['--amount', '1500', '--payer-name', 'x'.repeat(121)], '--payer-name (payerName): must be at most 120'],
    ['external id too long', ['--amount', '1500', '--external-id', 'x'.repeat(129)], '--external-id (externalId): must be at most 128'],
    ['description too long', ['--amount', '1500', '--description', 'x'.repeat(201)], '--description (description): must be at most 200'],
    ['metadata without =', ['--amount', '1500', '--metadata', 'sku'], '--metadata (metadata): expected key=value, got "sku"'],
    ['metadata with an empty key', ['--amount', '1500', '--metadata', '=v'], '--metadata (metadata): the key is empty'],
    ['metadata value too long', ['--amount', '1500', '--metadata', `note=${'x'.repeat(501)}`], '--metadata (metadata.note): each metadata value must be at most 500'],
    ['more than 20 metadata entries', ['--amount', '1500', ...Array.from({ length: 21 }, (_, i) => ['--metadata', `k${i}=v`]).flat()], '--metadata (metadata): must have at most 20 entries'],
    ['idempotency key too long', ['--amount', '1500', '--idempotency-key', 'k'.repeat(129)], '--idempotency-key (Idempotency-Key): must be at most 128'],
    ['a bad --wait-timeout', ['--amount', '1500', '--wait', 'settled', '--wait-timeout', 'soon'], '--wait-timeout'],
    ['an unknown --wait state', ['--amount', '1500', '--wait', 'paid'], '--wait'],
  ]
  it.each(cases)('%s', async (_name, argv, expected) => {
    const tracker = trackUnmatched()
    const args = argv.includes('--payer-tax-number') ? argv : [...argv, '--payer-tax-number', CPF]
    const r = await runCommand(ChargesCreate, args, { env: testEnv })
    expect(tracker.sent()).toEqual([])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(expected)
    expect(r.stdout).toBe('')
  })

  it('reports every bad flag at once', async () => {
    const r = await runCommand(ChargesCreate, ['--amount', '10', '--payer-tax-number', '11111111111', '--description', 'x'.repeat(300)], { env: testEnv })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('3 flags are invalid')
    expect(r.stderr).toContain('--amount (amountInCents)')
    expect(r.stderr).toContain('--payer-tax-number (payerTaxNumber)')
    expect(r.stderr).toContain('--description (description)')
  })

  it('--json prints the validation error as an error object on stderr', async () => {
    const r = await runCommand(ChargesCreate, ['--amount', '15.00', '--payer-tax-number', CPF, '--json'], { env: testEnv })
    expect(r.exitCode).toBe(2)
    expect(r.stdout).toBe('')
    const { error } = JSON.parse(r.stderr)
    expect(error.code).toBe('invalid_request')
    expect(error.details[0].field).toBe('--amount (amountInCents)')
  })

  it('a missing --amount is a usage error', async () => {
    const r = await runCommand(ChargesCreate, ['--payer-tax-number', CPF], { env: testEnv })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('amount')
  })

  it('-q and --json cannot be combined', async () => {
    const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '-q', '--json'], { env: testEnv })
    expect(r.exitCode).toBe(2)
  })
})

describe('svc charges create: payer tax number absent', () => {
  it('with a test key and no terminal, uses a valid generated CPF and says so on stderr', async () => {
    let sent: { payerTaxNumber?: string } = {}
    nock(BASE_URL)
      .post('/v1/charges')
      .reply(async (req: Request) => {
        sent = (await req.json()) as typeof sent
        return [201, charge()]
      })
    const r = await runCommand(ChargesCreate, ['--amount', '1500'], { env: testEnv })
    expect(r.exitCode).toBe(0)
    expect(sent.payerTaxNumber).toMatch(/^\d{11}$/)
    const { isValidCpf } = await import('@brazilian-utils/brazilian-utils/is-valid-cpf')
    expect(isValidCpf(sent.payerTaxNumber!)).toBe(true)
    expect(r.stderr).toContain('generated test CPF')
    expect(r.stdout).toBe('65a1f0c2b3d4e5f60718293a\n')
  })

  it('with a live key and no terminal, exits 2 naming the flag and sends nothing', async () => {
    const tracker = trackUnmatched()
    const r = await runCommand(ChargesCreate, ['--amount', '1500'], { env: liveEnv })
    expect(tracker.sent()).toEqual([])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--payer-tax-number (payerTaxNumber)')
  })
})

describe('svc charges create --wait', () => {
  it('polls GET /v1/charges/{id} until the state is reached (TTY: spinner on stderr only)', async () => {
    const clock = fakeWaitClock()
    nock(BASE_URL)
      .post('/v1/charges')
      .reply(201, charge())
      .get('/v1/charges/65a1f0c2b3d4e5f60718293a')
      .reply(200, charge())
      .get('/v1/charges/65a1f0c2b3d4e5f60718293a')
      .reply(200, charge({ status: 'paid_pending_settlement' }))
      .get('/v1/charges/65a1f0c2b3d4e5f60718293a')
      .reply(200, charge({ status: 'settled' }))
    const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--wait', 'settled'], { factory: clock.factory, env: testEnv, tty: true })
    expect(r.exitCode).toBe(0)
    expect(clock.sleeps).toEqual([1000, 1000, 1000])
    expect(r.stderr).toContain('Waiting for')
    expect(stripAnsi(r.stderr)).toContain('is settled')
    expect(r.stdout).not.toContain('Waiting for')
  })

  it('piped --json --wait prints the final charge; no spinner text anywhere on stdout', async () => {
    const clock = fakeWaitClock()
    nock(BASE_URL)
      .post('/v1/charges')
      .reply(201, charge())
      .get('/v1/charges/65a1f0c2b3d4e5f60718293a')
      .reply(200, charge({ status: 'paid_pending_settlement' }))
    const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--wait', 'paid_pending_settlement', '--json'], { factory: clock.factory, env: testEnv })
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout).status).toBe('paid_pending_settlement')
    expect(r.stderr).toBe('')
  })

  it('exits 8 when the charge ends in another state (expired while waiting for settled)', async () => {
    const clock = fakeWaitClock()
    nock(BASE_URL)
      .post('/v1/charges')
      .reply(201, charge())
      .get('/v1/charges/65a1f0c2b3d4e5f60718293a')
      .reply(200, charge({ status: 'expired' }))
    const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--wait', 'settled'], { factory: clock.factory, env: testEnv })
    expect(r.exitCode).toBe(8)
    expect(r.stdout).toBe('65a1f0c2b3d4e5f60718293a\n')
    expect(r.stderr).toContain('expired')
    expect(r.stderr).toContain('can no longer become settled')
  })

  it('exits 8 when --wait-timeout passes (injected clock: no real sleeping)', async () => {
    const clock = fakeWaitClock()
    nock(BASE_URL).post('/v1/charges').reply(201, charge()).get('/v1/charges/65a1f0c2b3d4e5f60718293a').times(5).reply(200, charge())
    const r = await runCommand(ChargesCreate, ['--amount', '1500', '--payer-tax-number', CPF, '--wait', 'settled', '--wait-timeout', '5s'], { factory: clock.factory, env: testEnv })
    expect(r.exitCode).toBe(8)
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(5000)
    expect(r.stderr).toContain('Timed out after 5s')
    expect(r.stderr).toContain('awaiting_payment')
  })
})
