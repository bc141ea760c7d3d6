/**
 * What each charge added to a report, by its id (reports.ts): a few numbers per charge, kept in
 * typed arrays instead of a JavaScript object per charge.
 *
 * A report remembers every charge it summed (a charge can be read twice, in two states), and at
 * 100 000 charges a Map of small arrays held ~20 MB of objects, which took the peak RSS of
 * `svc report settlements` over a month from 1.03× to 1.45× of a report over 1 000 charges
 * (`node bench/run.js --only report`). Here an id of the service's form (24 hexadecimal digits)
 * is three 32-bit words in an open-addressing table, and the numbers are columns of one
 * Float64Array: about 50 bytes per charge, outside the JavaScript heap, so the collector has
 * nothing to trace. Any other id (an id is opaque to the API) goes to a Map, exactly as given.
 */

const HEX24 = /^[0-9a-f]{24}$/

export class ChargeContributions {
  /** Per slot: its entry's index + 1, or 0 when the slot is free. */
  private slots: Int32Array
  /** Per slot: the id's three 32-bit words. */
  private keys: Uint32Array
  /** Per entry: `width` numbers. */
  private values: Float64Array
  /** Per entry: 1 while it holds a contribution, 0 once deleted (the id keeps its entry). */
  private present: Uint8Array
  private entries = 0
  /** Ids that are not 24 lowercase hexadecimal digits, to their entry. */
  private readonly other = new Map<string, number>()

  constructor(
    private readonly width: number,
    capacity = 1024,
  ) {
    const slots = 1 << Math.ceil(Math.log2(Math.max(16, capacity * 2)))
    this.slots = new Int32Array(slots)
    this.keys = new Uint32Array(slots * 3)
    this.values = new Float64Array(capacity * width)
    this.present = new Uint8Array(capacity)
  }

  /** The numbers this id added, or undefined when it added nothing (never set, or deleted). */
  get(id: string): number[] | undefined {
    const entry = this.find(id, false)
    if (entry < 0 || this.present[entry] === 0) return undefined
    return Array.from(this.values.subarray(entry * this.width, (entry + 1) * this.width))
  }

  /** Records what this id added (`width` numbers), replacing what it added before. */
  set(id: string, values: readonly number[]): void {
    const entry = this.find(id, true)
    this.values.set(values.slice(0, this.width), entry * this.width)
    this.present[entry] = 1
  }

  /** Forgets what this id added. */
  delete(id: string): void {
    const entry = this.find(id, false)
    if (entry >= 0) this.present[entry] = 0
  }

  /** The id's entry; with `create`, a new one when it has none (else -1). */
  private find(id: string, create: boolean): number {
    if (!HEX24.test(id)) {
      const known = this.other.get(id)
      if (known !== undefined || !create) return known ?? -1
      const entry = this.newEntry()
      this.other.set(id, entry)
      return entry
    }
    const a = Number.parseInt(id.slice(0, 8), 16) >>> 0
    const b = Number.parseInt(id.slice(8, 16), 16) >>> 0
    const c = Number.parseInt(id.slice(16, 24), 16) >>> 0
    const mask = this.slots.length - 1
    for (let slot = hash(a, b, c) & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot]!
      if (held === 0) {
        if (!create) return -1
        const entry = this.newEntry()
        // newEntry may have grown the table: place the id in the new one.
        this.place(a, b, c, entry)
        return entry
      }
      if (this.keys[slot * 3] === a && this.keys[slot * 3 + 1] === b && this.keys[slot * 3 + 2] === c) return held - 1
    }
  }

  private place(a: number, b: number, c: number, entry: number): void {
    const mask = this.slots.length - 1
    let slot = hash(a, b, c) & mask
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask
    this.slots[slot] = entry + 1
    this.keys[slot * 3] = a
    this.keys[slot * 3 + 1] = b
    this.keys[slot * 3 + 2] = c
  }

  private newEntry(): number {
    const entry = this.entries++
    if (entry >= this.present.length) {
      const values = new Float64Array(this.values.length * 2)
      values.set(this.values)
      this.values = values
      const present = new Uint8Array(this.present.length * 2)
      present.set(this.present)
      this.present = present
    }
    // At most half the slots taken (the table's own entries only: other ids are in the Map).
    if ((entry - this.other.size + 1) * 2 > this.slots.length) this.grow()
    return entry
  }

  private grow(): void {
    const { slots, keys } = this
    this.slots = new Int32Array(slots.length * 2)
    this.keys = new Uint32Array(keys.length * 2)
    for (let slot = 0; slot < slots.length; slot++) {
      if (slots[slot] !== 0) this.place(keys[slot * 3]!, keys[slot * 3 + 1]!, keys[slot * 3 + 2]!, slots[slot]! - 1)
    }
  }
}

function hash(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b ^ 0xc2b2ae35, 0x27d4eb2f) ^ Math.imul(c ^ 0x165667b1, 0x9e3779b1)
  h ^= h >>> 15
  h = Math.imul(h, 0x2c1b3c6d)
  return (h ^ (h >>> 13)) >>> 0
}
