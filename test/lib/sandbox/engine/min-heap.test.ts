import { describe, expect, it } from 'vitest'
import { MinHeap } from '../../../../src/lib/sandbox/engine/min-heap.js'

describe('MinHeap', () => {
  it('gives items back in comparator order, whatever the order they went in', () => {
    const heap = new MinHeap<number>((a, b) => a < b)
    // A fixed pseudo-random sequence with duplicates, pushed and popped interleaved.
    const values = Array.from({ length: 2000 }, (_, i) => (i * 7919) % 613)
    const out: number[] = []
    for (const [i, v] of values.entries()) {
      heap.push(v)
      if (i % 3 === 0) out.push(heap.pop()!)
    }
    const drained: number[] = []
    while (heap.size > 0) drained.push(heap.pop()!)
    expect(drained).toEqual([...drained].sort((a, b) => a - b))
    expect([...out, ...drained].sort((a, b) => a - b)).toEqual([...values].sort((a, b) => a - b))
    expect(heap.pop()).toBeUndefined()
    expect(heap.peek()).toBeUndefined()
  })

  it('breaks ties with the comparator: equal due times come out in insertion order', () => {
    type E = { due: number; seq: number; name: string }
    const heap = new MinHeap<E>((a, b) => a.due < b.due || (a.due === b.due && a.seq < b.seq))
    let seq = 0
    for (const [due, name] of [
      [5, 'a'],
      [1, 'b'],
      [5, 'c'],
      [1, 'd'],
      [3, 'e'],
      [5, 'f'],
    ] as const)
      heap.push({ due, seq: seq++, name })
    expect(heap.peek()?.name).toBe('b')
    expect(heap.size).toBe(6)
    const names: string[] = []
    while (heap.size) names.push(heap.pop()!.name)
    expect(names).toEqual(['b', 'd', 'e', 'a', 'c', 'f'])
  })
})
