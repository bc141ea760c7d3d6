/**
 * Product checkout sales (spec 6.3): the real service sells a merchant's products through its own
 * checkout; the sandbox simulates one sale on request (`POST /_sandbox/product-sales`). Each sale
 * is saved with its one `product.paid` event, always in the live environment, then published.
 */
import type { ProductPayment, ProductSaleRequest } from '../../contract/product-sales.js'
import { computeAmount } from '../../domain/money.js'
import { newResourceId, randomHex } from '../store/ids.js'
import { resourceEvent } from './resource-events.js'
import type { SandboxClock } from './clock.js'
import type { SandboxStore } from '../store/store.js'
import type { EventSink } from '../types.js'

export const PRODUCT_SALE_DEFAULTS = { productName: 'Produto Sandbox', valueInCents: 4990, buyerEmail: 'comprador@example.com', paidWith: 'pix' } as const

export interface ProductSaleDeps {
  store: SandboxStore
  clock: SandboxClock
  sink: EventSink
}

export class ProductSales {
  private readonly insert
  private readonly recent

  constructor(private readonly deps: ProductSaleDeps) {
    this.insert = deps.store.db.prepare('INSERT INTO product_sales (id, body) VALUES (?, ?)')
    this.recent = deps.store.db.prepare('SELECT body FROM product_sales ORDER BY seq DESC LIMIT ?')
  }

  /** The sales, newest first (the panel's list; all live). */
  list(limit = 50): ProductPayment[] {
    return (this.recent.all(limit) as Array<{ body: string }>).map((row) => JSON.parse(row.body) as ProductPayment)
  }

  async create(input: ProductSaleRequest): Promise<{ productPayment: ProductPayment; eventId: string }> {
    const atMs = this.deps.clock.now()
    const name = input.productName ?? PRODUCT_SALE_DEFAULTS.productName
    const valueInCents = input.valueInCents ?? PRODUCT_SALE_DEFAULTS.valueInCents
    const productPayment: ProductPayment = {
      id: newResourceId(atMs),
      product: { id: `prod_${productSlug(name)}`, name },
      valueInCents,
      // The plan's fee, as on a charge (spec 2.3).
      netValueInCents: computeAmount(valueInCents, this.deps.store.getSettings()).netInCents,
      buyerEmail: input.buyerEmail ?? PRODUCT_SALE_DEFAULTS.buyerEmail,
      paidWith: input.paidWith ?? PRODUCT_SALE_DEFAULTS.paidWith,
      paidAt: new Date(atMs).toISOString(),
    }
    const event = resourceEvent('product.paid', 'live', atMs, `product-sale:${productPayment.id}`, { productPayment })
    await this.deps.store.writes.run(() => {
      this.insert.run(productPayment.id, JSON.stringify(productPayment))
      this.deps.store.insertEvent(event)
    })
    this.deps.sink.publish(event)
    return { productPayment, eventId: event.id }
  }
}

/** A stable product id from its name (the same product sold twice has one id). */
function productSlug(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 40)
  return slug || randomHex(4)
}
