/**
 * A binary min-heap over an array, ordered by an injected `before(a, b)` (true when `a` must
 * come out first). The sandbox keeps thousands of deadlines (expiries, settlements, webhook
 * retries) behind one clock timer each; this is the one place that orders them.
 */
export class MinHeap<T> {
  private readonly items: T[] = []

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length
  }

  /** The first item, left in place. */
  peek(): T | undefined {
    return this.items[0]
  }

  push(item: T): void {
    const h = this.items
    h.push(item)
    let i = h.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.before(h[i]!, h[parent]!)) break
      ;[h[i], h[parent]] = [h[parent]!, h[i]!]
      i = parent
    }
  }

  /** Takes the first item out. */
  pop(): T | undefined {
    const h = this.items
    const top = h[0]
    const last = h.pop()
    if (h.length > 0 && last !== undefined) {
      h[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < h.length && this.before(h[l]!, h[m]!)) m = l
        if (r < h.length && this.before(h[r]!, h[m]!)) m = r
        if (m === i) break
        ;[h[i], h[m]] = [h[m]!, h[i]!]
        i = m
      }
    }
    return top
  }
}
