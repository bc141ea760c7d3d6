/**
 * A small shop: an order is paid by a Pix charge, and released (goods shipped) only when the
 * charge is settled. The webhook handler:
 *   1. verifies the delivery on the raw body with verifyWebhook (never trusts an unsigned body),
 *   2. deduplicates by event id (the service delivers at least once),
 *   3. confirms the state with GET /v1/charges/{id} (the authority: events may arrive late or
 *      out of order, and the body could be a replay),
 *   4. releases the order only at `settled`, once; reverses it on `refunded`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isEventType, verifyWebhook, WebhookVerificationError } from 'svc-cli/webhooks'

export interface ShopConfig {
  /** The service's base URL (the sandbox's in tests). */
  apiBaseUrl: string
  apiKey: string
  webhookSecret: string
}

export type OrderStatus = 'awaiting_payment' | 'released' | 'canceled' | 'expired' | 'refunded'

export interface Order {
  id: string
  amountInCents: number
  chargeId: string
  qrCode: string
  status: OrderStatus
  /** How many times the goods were released (a correct shop: never more than once). */
  releases: number
}

interface Charge {
  id: string
  externalId?: string
  status: string
  pix: { qrCode: string }
}

/** The events that move a charge (charge.test and the split events need nothing from the shop). */
const CHARGE_EVENTS = ['charge.awaiting_payment', 'charge.paid_pending_settlement', 'charge.settled', 'charge.expired', 'charge.canceled', 'charge.failed', 'charge.refunded'] as const

export class Shop {
  readonly orders = new Map<string, Order>()
  private readonly byCharge = new Map<string, Order>()
  private readonly seenEvents = new Set<string>()
  private server?: Server
  private nextOrder = 1
  private readonly config: ShopConfig

  // A plain field, not a parameter property: `npm start` runs this file with Node's type
  // stripping, which only erases types (no parameter properties, enums or namespaces).
  constructor(config: ShopConfig) {
    this.config = config
  }

  /** A new order and the charge that pays it (the QR to show the buyer). */
  async createOrder(amountInCents: number, payerTaxNumber: string): Promise<Order> {
    const id = `order-${this.nextOrder++}-${Date.now().toString(36)}`
    const charge = await this.api<Charge>('POST', '/v1/charges', { amountInCents, payerTaxNumber, externalId: id }, { 'idempotency-key': id })
    const order: Order = { id, amountInCents, chargeId: charge.id, qrCode: charge.pix.qrCode, status: 'awaiting_payment', releases: 0 }
    this.orders.set(id, order)
    this.byCharge.set(charge.id, order)
    return order
  }

  /** Cancels an unpaid order's charge (its QR must no longer be shown). */
  async cancelOrder(orderId: string): Promise<void> {
    const order = this.orders.get(orderId)
    if (!order) throw new Error(`no order ${orderId}`)
    await this.api('POST', `/v1/charges/${order.chargeId}/cancel`)
    order.status = 'canceled'
  }

  /** POST /webhooks: the raw body, verified, deduplicated, confirmed. */
  async handleWebhook(rawBody: Buffer, headers: IncomingMessage['headers']): Promise<number> {
    let event
    try {
      event = verifyWebhook(rawBody, headers, this.config.webhookSecret)
    } catch (err) {
      if (err instanceof WebhookVerificationError) return 400
      throw err
    }
    if (this.seenEvents.has(event.id)) return 200
    if (isEventType(event, ...CHARGE_EVENTS)) {
      const order = this.byCharge.get(event.data.charge.id)
      // The event says something happened; the API says where the charge is now.
      if (order) await this.reconcile(order, await this.api<Charge>('GET', `/v1/charges/${order.chargeId}`))
    }
    // Unknown types and other resources: acknowledged (spec 6.3), nothing to do here.
    this.seenEvents.add(event.id)
    return 200
  }

  private async reconcile(order: Order, charge: Charge): Promise<void> {
    switch (charge.status) {
      case 'settled':
        // A canceled order whose QR was paid anyway: the money arrived, the buyer gets the goods.
        if (order.status !== 'released' && order.status !== 'refunded') {
          order.status = 'released'
          order.releases++
        }
        break
      case 'refunded':
        order.status = 'refunded'
        break
      case 'expired':
        if (order.status === 'awaiting_payment') order.status = 'expired'
        break
      case 'canceled':
        if (order.status === 'awaiting_payment') order.status = 'canceled'
        break
    }
  }

  async listen(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.route(req, res))
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const body = Buffer.concat(chunks)
    try {
      if (req.method === 'POST' && req.url === '/webhooks') {
        res.statusCode = await this.handleWebhook(body, req.headers)
        return void res.end()
      }
      if (req.method === 'POST' && req.url === '/orders') {
        const { amountInCents, payerTaxNumber } = JSON.parse(body.toString('utf8')) as { amountInCents: number; payerTaxNumber: string }
        const order = await this.createOrder(amountInCents, payerTaxNumber)
        res.writeHead(201, { 'content-type': 'application/json' })
        return void res.end(JSON.stringify(order))
      }
      res.statusCode = 404
      res.end()
    } catch (err) {
      // A 5xx makes the service retry the delivery later: nothing is lost.
      res.statusCode = 500
      res.end(String(err))
    }
  }

  private async api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const res = await fetch(`${this.config.apiBaseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.config.apiKey}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }
}
