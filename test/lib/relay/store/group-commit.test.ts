import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { GroupCommit } from '../../../../src/lib/relay/store/group-commit.js'

/**
 * The two promises of group commit, over random arrivals and random failing commits:
 * no caller is answered before the commit holding its item finished, and a failed commit
 * fails every caller in it (and only those).
 */
describe('GroupCommit', () => {
  it('answers no caller before its commit, and fails exactly the callers of a failed commit', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Waves of submissions; between waves the event loop turns (a batch may close).
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 20, maxLength: 20 }),
        async (waves, failing, delays) => {
          const committed = new Set<number>()
          const failed = new Set<number>()
          const batches: number[][] = []
          let inCommit = 0
          const gc = new GroupCommit<number, string>({
            maxBatch: 5,
            commit: async (items) => {
              const b = batches.length
              batches.push([...items])
              inCommit++
              expect(inCommit).toBe(1) // one transaction at a time
              for (let i = 0; i < delays[b % 20]!; i++) await new Promise((r) => setImmediate(r))
              inCommit--
              if (failing[b % 20]) {
                for (const i of items) failed.add(i)
                throw new Error(`batch ${b} failed`)
              }
              for (const i of items) committed.add(i)
              return items.map((i) => `ok ${i}`)
            },
          })
          const outcomes = new Map<number, 'ok' | 'failed'>()
          const all: Promise<void>[] = []
          let next = 0
          for (const size of waves) {
            for (let k = 0; k < size; k++) {
              const item = next++
              all.push(
                gc.submit(item).then(
                  (v) => {
                    expect(v).toBe(`ok ${item}`)
                    expect(committed.has(item)).toBe(true)
                    outcomes.set(item, 'ok')
                  },
                  () => {
                    expect(failed.has(item)).toBe(true)
                    outcomes.set(item, 'failed')
                  },
                ),
              )
            }
            await new Promise((r) => setImmediate(r))
          }
          await Promise.all(all)
          await gc.drain()
          expect(outcomes.size).toBe(next)
          for (const batch of batches) {
            const kinds = new Set(batch.map((i) => outcomes.get(i)))
            expect(kinds.size).toBe(1) // all callers of one commit share its fate
            expect(batch.length).toBeLessThanOrEqual(5)
          }
          // Commit order is submission order.
          expect(batches.flat()).toEqual(Array.from({ length: next }, (_, i) => i))
        },
      ),
      { numRuns: 100 },
    )
  })

  it('puts what is submitted in one turn into one transaction', async () => {
    const batches: number[][] = []
    const gc = new GroupCommit<number, number>({ commit: (items) => (batches.push([...items]), [...items]) })
    await Promise.all([1, 2, 3, 4].map((i) => gc.submit(i)))
    expect(batches).toEqual([[1, 2, 3, 4]])
  })
})
