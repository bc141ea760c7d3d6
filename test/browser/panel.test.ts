/**
 * The sandbox's web panel in a real browser: Chromium from the system (Debian's `chromium`,
 * installed by .ci/run; nothing is downloaded), driven by playwright-core. What a developer does
 * with it — watch a charge created from the CLI appear, pay it at the sandbox bank, read the
 * delivery log and resend, fix the webhook URL, manage keys — and what an attacker cannot.
 */
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { svc } from '../helpers/cli.js'
import { ROOT } from '../helpers/run-command.js'
import { needs, toolPath } from '../helpers/system-tools.js'
import { startApp, type TargetApp } from '../helpers/webhooks.js'

// The system's Chromium (SVC_CHROMIUM, else `chromium` on PATH); without it every test here is
// skipped, naming the install line (in CI: fails).
const CHROMIUM = toolPath('chromium')

/** The little of the page's window these tests read (the test project has no DOM types). */
interface BrowserWindow {
  innerWidth: number
  document: { scrollingElement: { scrollWidth: number }; createRange(): { selectNodeContents(node: unknown): void; getClientRects(): Iterable<{ top: number }> } }
  getComputedStyle(node: unknown): { whiteSpace: string }
}
const CPF = '529.982.247-25'

let sb: RunningSandbox
let app: TargetApp
let browser: Browser
let context: BrowserContext
let page: Page

const cliEnv = () => ({ SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl })

async function api(method: string, path: string, body?: unknown, key = sb.testKey): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${sb.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

beforeAll(async () => {
  if (!CHROMIUM) return
  sb = await startSandboxServer({ port: 0, inMemory: true })
  app = await startApp()
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  context = await browser.newContext()
  page = await context.newPage()
  await page.goto(sb.panelUrl)
}, 60_000)

beforeEach((ctx) => {
  needs(ctx, 'chromium')
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
  await sb?.close()
})

describe('the web panel', () => {
  it('opens from the printed URL, drops the token from the address bar, and shows a charge created from the CLI without a reload', async () => {
    expect(page.url()).toBe(`${sb.baseUrl}/panel/charges?env=test`)
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42))
    const created = await svc(['charges', 'create', '--amount', '1500', '--payer-tax-number', CPF, '--description', 'Pedido ao vivo', '-q'], { env: cliEnv() })
    expect(created.exitCode).toBe(0)
    const id = created.stdout.trim()
    const row = page.locator(`tr[data-charge="${id}"]`)
    await row.waitFor({ timeout: 5000 })
    await expect.poll(() => row.textContent()).toContain('R$ 15,00')
    expect(await row.textContent()).toContain('awaiting_payment')
    // Same document: the row arrived live.
    expect(await page.evaluate(() => (globalThis as unknown as { marker: number }).marker)).toBe(42)
    await page.screenshot({ path: join(ROOT, 'docs', 'panel-charges.png') })
  })

  it('the sandbox bank pays a charge from its copy-and-paste string; the clock settles it; the charge page shows the timeline', async () => {
    const { body: charge } = await api('POST', '/v1/charges', { amountInCents: 4990, payerTaxNumber: CPF, description: 'Camiseta' })
    await page.goto(`${sb.baseUrl}/panel/charges/${charge.id}?env=test`)
    await page.getByRole('link', { name: 'Pay it in the sandbox bank' }).click()
    await expect.poll(() => page.locator('#code').inputValue()).toBe((charge.pix as { qrCode: string }).qrCode)
    await page.getByRole('button', { name: 'Check' }).click()
    expect(await page.locator('main').textContent()).toContain('R$ 49,90')
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    expect(await page.getByRole('status').first().textContent()).toContain('paid_pending_settlement')
    // Paying again says why not.
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    expect(await page.locator('main').textContent()).toContain('already paid')

    await page.goto(`${sb.baseUrl}/panel/clock?env=test`)
    await page.getByLabel('Move forward by').fill('25h')
    await page.getByRole('button', { name: 'Advance' }).click()
    await page.goto(`${sb.baseUrl}/panel/charges/${charge.id}?env=test`)
    expect(await page.locator('h1').textContent()).toContain('settled')
    const timeline = await page.locator('ol').textContent()
    for (const t of ['charge.awaiting_payment', 'charge.paid_pending_settlement', 'charge.settled']) expect(timeline).toContain(t)
    await page.screenshot({ path: join(ROOT, 'docs', 'panel-charge.png'), fullPage: true })
  })

  it('a corrupted copy-and-paste string is refused with the reason', async () => {
    const { body: charge } = await api('POST', '/v1/charges', { amountInCents: 1500, payerTaxNumber: CPF })
    await page.goto(`${sb.baseUrl}/panel/bank?env=test`)
    await page.getByLabel('Pix copy-and-paste').fill((charge.pix as { qrCode: string }).qrCode.replace('Loja', 'Loj4'))
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    expect(await page.locator('main').textContent()).toMatch(/This string cannot be paid: its CRC is \w{4} but its content gives \w{4}/)
    expect((await api('GET', `/v1/charges/${charge.id}`)).body.status).toBe('awaiting_payment')
  })

  it('setting the webhook URL; the delivery log shows body, response and attempts; resend delivers the same event id again', async () => {
    await page.goto(`${sb.baseUrl}/panel/webhook?env=test`)
    await page.getByLabel('URL').fill(`${app.url}/hooks`)
    await page.getByRole('button', { name: 'Save' }).click()
    expect(await page.getByRole('status').first().textContent()).toContain('Saved')
    const { body: charge } = await api('POST', '/v1/charges', { amountInCents: 2000, payerTaxNumber: CPF })
    await expect.poll(() => app.received.filter((r) => r.body.toString().includes(charge.id as string)).length, { timeout: 5000 }).toBe(1)
    const eventId = app.received.at(-1)!.headers['x-svc-event-id'] as string

    await page.goto(`${sb.baseUrl}/panel/deliveries?env=test`)
    const entry = page.locator(`details[data-event="${eventId}"]`)
    await entry.locator('summary').click()
    const text = await entry.textContent()
    expect(text).toContain('1 attempt')
    expect(text).toContain(charge.id as string) // the body sent
    expect(text).toContain('ok') // the app's answer
    await entry.getByRole('button', { name: 'Resend' }).click()
    await expect.poll(() => app.received.filter((r) => r.headers['x-svc-event-id'] === eventId).length, { timeout: 5000 }).toBe(2)
  })

  it('saving the URL again reactivates an endpoint deactivated after 24 h of failures', async () => {
    await api('PUT', '/_sandbox/webhook', { url: 'http://127.0.0.1:9/dead', env: 'live' })
    await api('POST', '/v1/charges', { amountInCents: 1500, payerTaxNumber: CPF }, sb.liveKey)
    await api('POST', '/_sandbox/clock/advance', { ms: 25 * 3_600_000 })
    expect((await api('GET', '/_sandbox/webhook?env=live')).body.active).toBe(false)
    await page.goto(`${sb.baseUrl}/panel/webhook?env=live`)
    expect(await page.locator('main').textContent()).toContain('deactivated')
    await page.getByLabel('URL').fill(`${app.url}/live`)
    await page.getByRole('button', { name: 'Save' }).click()
    expect(await page.locator('main').textContent()).toContain('active')
    expect((await api('GET', '/_sandbox/webhook?env=live')).body).toMatchObject({ url: `${app.url}/live`, active: true })
  })

  it('keys: a new key is shown in full once, then masked; revoke works', async () => {
    await page.goto(`${sb.baseUrl}/panel/keys?env=test`)
    await page.getByRole('button', { name: 'Create a key' }).click()
    const key = (await page.locator('#newkey').textContent())!.trim()
    expect(key).toMatch(/^svc_test_[0-9a-f]{32}$/)
    expect((await api('GET', '/v1/account', undefined, key)).status).toBe(200)
    await page.goto(`${sb.baseUrl}/panel/keys?env=test`)
    const html = await page.content()
    expect(html).not.toContain(key)
    expect(html).not.toContain(sb.testKey)
    await page.getByRole('button', { name: `Revoke svc_test_…${key.slice(-4)}` }).click()
    expect((await api('GET', '/v1/account', undefined, key)).status).toBe(401)
  })
})

describe('what a new user reads in the panel (issue 24 item 11)', () => {
  it('the empty live page suggests a command that works in live; the connection dot is labelled as such', async () => {
    await sb.reset()
    await page.goto(`${sb.baseUrl}/panel/charges?env=live`)
    const main = await page.locator('main').textContent()
    expect(main).toContain('svc charges create --amount 1500 --payer-tax-number 529.982.247-25 --profile sandbox-live')
    await expect.poll(() => page.locator('#live-status').textContent()).toBe('updates: live')
    await page.goto(`${sb.baseUrl}/panel/charges?env=test`)
    await expect.poll(() => page.locator('#live-status').textContent()).toBe('updates: live')
  })

  it('a settled charge offers neither its QR nor its copy-and-paste string, and says why', async () => {
    const { body: charge } = await api('POST', '/v1/charges', { amountInCents: 1500, payerTaxNumber: CPF })
    await api('POST', `/v1/test/charges/${charge.id}/advance`, { status: 'settled' })
    await page.goto(`${sb.baseUrl}/panel/charges/${charge.id}?env=test`)
    expect(await page.locator('[data-no-qr]').textContent()).toContain('it was paid, so it can no longer be paid')
    expect(await page.locator('#brcode').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(0)
    expect(await page.locator('img.qr').count()).toBe(0)
  })

  it('lists withdrawals and product sales on pages of their own', async () => {
    const { body: w } = await api('POST', '/_sandbox/withdrawals', { amountInCents: 250000, pixKey: 'maria@example.com' })
    const { body: sale } = await api('POST', '/_sandbox/product-sales', { productName: 'Caneca', valueInCents: 3990 }, sb.liveKey)
    await page.goto(`${sb.baseUrl}/panel/withdrawals?env=test`)
    const row = page.locator(`tr[data-withdrawal="${w.id}"]`)
    expect(await row.textContent()).toContain('R$ 2.500,00')
    expect(await row.textContent()).toContain('processing')
    await page.getByRole('link', { name: 'Sales', exact: true }).click()
    const saleRow = page.locator(`tr[data-sale="${(sale.productPayment as { id: string }).id}"]`)
    expect(await saleRow.textContent()).toContain('Caneca')
    expect(await saleRow.textContent()).toContain('R$ 39,90')
  })

  it("the delivery log shows each delivery's time and filters by event type and state in the query string", async () => {
    await api('PUT', '/_sandbox/webhook', { url: `${app.url}/hooks` })
    const { body: charge } = await api('POST', '/v1/charges', { amountInCents: 1500, payerTaxNumber: CPF })
    await api('POST', `/v1/test/charges/${charge.id}/advance`, { status: 'settled' })
    await expect.poll(() => app.received.filter((r) => r.body.toString().includes(charge.id as string)).length, { timeout: 5000 }).toBe(3)
    await page.goto(`${sb.baseUrl}/panel/deliveries?env=test`)
    await page.getByLabel('Event type').selectOption('charge.settled')
    await page.getByLabel('State').selectOption('succeeded')
    // A change in the sandbox refreshes the live page's <main>, form included: what the user chose
    // and has not sent yet survives it (it did not, and a delivery landing mid-choice reset it).
    const refreshed = page.waitForResponse((r) => r.request().headers()['x-panel-fragment'] === '1')
    await api('POST', '/v1/charges', { amountInCents: 1600, payerTaxNumber: CPF })
    await refreshed
    expect(await page.getByLabel('Event type').inputValue()).toBe('charge.settled')
    expect(await page.getByLabel('State').inputValue()).toBe('succeeded')
    // The form's GET is a navigation: read the address once it happened (under load the click returns before it).
    await Promise.all([page.waitForURL((url) => url.searchParams.has('type')), page.getByRole('button', { name: 'Filter' }).click()])
    expect(new URL(page.url()).searchParams.get('type')).toBe('charge.settled')
    expect(new URL(page.url()).searchParams.get('state')).toBe('succeeded')
    const types = await page.locator('details[data-event] summary strong').allTextContents()
    expect(types.length).toBeGreaterThan(0)
    expect(new Set(types)).toEqual(new Set(['charge.settled']))
    expect(await page.locator('details[data-event] summary time').first().getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/)
    await page.goto(`${sb.baseUrl}/panel/deliveries?env=test&type=charge.settled&state=failed`)
    expect(await page.locator('main').textContent()).toContain('No delivery matches this filter.')
  })

  it('serves a favicon', async () => {
    const res = await fetch(`${sb.baseUrl}/favicon.ico`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^image\//)
    expect(await res.text()).toContain('<svg')
  })

  it('every page fits 1280, 720 and 400 px without horizontal overflow; amounts and dates never wrap on a wide screen', async () => {
    const { body: charge } = await api('POST', '/v1/charges', { amountInCents: 4990, payerTaxNumber: CPF, payerName: 'Maria da Silva Souza', description: 'Camiseta azul tamanho M, pedido 1234' })
    const paths = ['charges', `charges/${charge.id}`, 'deliveries', 'withdrawals', 'sales', 'webhook', 'keys', 'account', 'clock', 'bank']
    const overflow: string[] = []
    for (const width of [1280, 720, 400]) {
      await page.setViewportSize({ width, height: 800 })
      for (const path of paths) {
        await page.goto(`${sb.baseUrl}/panel/${path}?env=test`)
        const over = await page.evaluate(() => {
          const w = globalThis as unknown as BrowserWindow
          return w.document.scrollingElement.scrollWidth - w.innerWidth
        })
        if (over > 0) overflow.push(`${path} at ${width} px: ${over} px too wide`)
        // For a person to look at (not kept in the repository): $TMPDIR/svc-panel-widths/.
        await page.screenshot({ path: join(tmpdir(), 'svc-panel-widths', `${path.replace(/\/.*/, '-one')}-${width}.png`), fullPage: true })
      }
    }
    expect(overflow).toEqual([])
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`${sb.baseUrl}/panel/charges?env=test`)
    const gross = page.locator(`tr[data-charge="${charge.id}"] td`).nth(2)
    expect(await gross.textContent()).toBe('R$ 49,90')
    // One line box: `R$ 49,90` is not broken after `R$`.
    const lines = await gross.evaluate((td) => {
      const range = (globalThis as unknown as BrowserWindow).document.createRange()
      range.selectNodeContents(td)
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
    })
    expect(lines).toBe(1)
    expect(await gross.evaluate((td) => (globalThis as unknown as BrowserWindow).getComputedStyle(td).whiteSpace)).toBe('nowrap')
  })
})

describe('what the panel refuses', () => {
  async function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
    const { request } = await import('node:http')
    const url = new URL(path, sb.baseUrl)
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
        let text = ''
        res.on('data', (c: Buffer) => (text += c.toString('utf8')))
        res.on('end', () => resolve({ status: res.statusCode!, text }))
      })
      req.on('error', reject)
      req.end(init.body)
    })
  }
  const cookie = () => context.cookies(`${sb.baseUrl}/panel/`).then((cs) => cs.map((c) => `${c.name}=${c.value}`).join('; '))

  it('without the token: 401; a wrong token: 401', async () => {
    expect((await raw('/panel/charges')).status).toBe(401)
    expect((await raw('/panel?token=nope')).status).toBe(401)
    expect((await raw('/panel/charges', { headers: { cookie: 'svc_panel=nope' } })).status).toBe(401)
  })

  it('a foreign Host (DNS rebinding) is refused even with the cookie', async () => {
    const r = await raw('/panel/charges', { headers: { host: 'attacker.example', cookie: await cookie() } })
    expect(r.status).toBe(403)
  })

  it('a POST without the CSRF token, or from another origin, changes nothing', async () => {
    const before = sb.admin!.listKeys().length
    const c = await cookie()
    const noToken = await raw('/panel/keys?env=test', { method: 'POST', headers: { cookie: c, 'content-type': 'application/x-www-form-urlencoded' }, body: 'env=test' })
    expect(noToken.status).toBe(403)
    const csrf = await page.goto(`${sb.baseUrl}/panel/keys?env=test`).then(() => page.locator('input[name=_csrf]').first().inputValue())
    const foreign = await raw('/panel/keys?env=test', {
      method: 'POST',
      headers: { cookie: c, origin: 'http://attacker.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: `_csrf=${csrf}&env=test`,
    })
    expect(foreign.status).toBe(403)
    // A real cross-site page that auto-submits a form to the panel: the browser sends no cookie (SameSite=Strict).
    const evil = await startApp((_r, res) => {
      res.setHeader('content-type', 'text/html')
      res.end(`<form id=f method=post action="${sb.baseUrl}/panel/keys?env=test"><input name=env value=test></form><script>document.getElementById('f').submit()</script>`)
    })
    try {
      const attacker = await context.newPage()
      await attacker.goto(`${evil.url}/`)
      await attacker.waitForURL(/\/panel\/keys/, { timeout: 5000 })
      expect(await attacker.locator('body').textContent()).toMatch(/Sign-in needed|Forbidden/)
      await attacker.close()
    } finally {
      await evil.close()
    }
    expect(sb.admin!.listKeys().length).toBe(before)
  })

  it('a charge description holding <script> is shown as text and never runs', async () => {
    const payload = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'
    const { body: charge } = await api('POST', '/v1/charges', { amountInCents: 1500, payerTaxNumber: CPF, description: payload, metadata: { note: '"><b>bold</b>' } })
    await page.goto(`${sb.baseUrl}/panel/charges/${charge.id}?env=test`)
    expect(await page.locator('main').textContent()).toContain(payload)
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined()
    expect(await page.locator('main b').count()).toBe(0)
    const headers = (await page.goto(`${sb.baseUrl}/panel/charges?env=test`))!.headers()
    expect(headers['content-security-policy']).toContain("script-src 'self'")
    expect(headers['x-frame-options']).toBe('DENY')
  })
})

describe('accessibility', () => {
  it('every page passes axe-core with no serious or critical violation', async () => {
    // axe runs inside the page: a context that lets its script in past the panel's CSP.
    const audit = await browser.newContext({ bypassCSP: true })
    await audit.addCookies((await context.cookies(`${sb.baseUrl}/panel/`)).map((c) => ({ ...c })))
    const p = await audit.newPage()
    const axe = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8')
    const { body: charge } = await api('POST', '/v1/charges', { amountInCents: 1500, payerTaxNumber: CPF })
    const found: string[] = []
    for (const path of ['charges', `charges/${charge.id}`, 'deliveries', 'withdrawals', 'sales', 'webhook', 'keys', 'account', 'clock', 'bank']) {
      await p.goto(`${sb.baseUrl}/panel/${path}?env=test`)
      await p.evaluate(axe)
      const violations = await p.evaluate(async () => {
        const r = await (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe.run()
        return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`)
      })
      found.push(...violations.map((v) => `${path}: ${v}`))
    }
    await audit.close()
    expect(found).toEqual([])
  })
})
