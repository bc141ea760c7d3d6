import { describe, expect, it } from 'vitest'
import { pairedRuns, roundOrder } from '../../bench/lib/rounds.js'

const cases = [{ name: 'node' }, { name: 'version' }, { name: 'help' }, { name: 'get' }, { name: 'vs version', mine: 'version' }, { name: 'vs get', mine: 'get' }]
const names = (order: number[]) => order.map((i) => cases[i]!.name)
const predecessor = (order: number[], name: string) => names(order)[names(order).indexOf(name) - 1]

describe('the rounds of a suite that compares two builds (bench --vs)', () => {
  it('runs each case of the other build right next to its own case, the two going first in turn', () => {
    expect(names(roundOrder(cases, 0))).toEqual(['node', 'version', 'vs version', 'help', 'get', 'vs get'])
    expect(names(roundOrder(cases, 1))).toEqual(['node', 'vs version', 'version', 'help', 'vs get', 'get'])
    // Every other two rounds the cases run in the reverse order, so none always follows the same.
    expect(names(roundOrder(cases, 2))).toEqual(['get', 'vs get', 'help', 'version', 'vs version', 'node'])
    expect(names(roundOrder(cases, 3))).toEqual(['vs get', 'get', 'help', 'vs version', 'version', 'node'])
    expect(roundOrder(cases, 4)).toEqual(roundOrder(cases, 0))
  })

  it('so over two rounds each build of a pair follows the same cases as the other', () => {
    for (const start of [0, 2]) {
      const two = [roundOrder(cases, start), roundOrder(cases, start + 1)]
      for (const [mine, theirs] of [
        ['version', 'vs version'],
        ['get', 'vs get'],
      ] as const) {
        const mineAfter = two.map((o) => predecessor(o, mine)).map((n) => (n === theirs ? 'twin' : n))
        const theirsAfter = two.map((o) => predecessor(o, theirs)).map((n) => (n === mine ? 'twin' : n))
        expect(mineAfter.sort()).toEqual(theirsAfter.sort())
      }
    }
  })

  it('starts a round later in the second pass (swap), and runs every case once a round', () => {
    expect(roundOrder(cases, 0, true)).toEqual(roundOrder(cases, 1))
    expect(roundOrder(cases, 1, true)).toEqual(roundOrder(cases, 2))
    expect([...roundOrder(cases, 3)].sort()).toEqual([0, 1, 2, 3, 4, 5])
    expect(() => roundOrder([{ name: 'a' }, { name: 'vs b', mine: 'b' }], 0)).toThrow(/no case named b/)
  })

  it('takes an even number of runs, so that each build goes first in as many rounds', () => {
    expect([pairedRuns(15), pairedRuns(9), pairedRuns(8)]).toEqual([16, 10, 8])
  })
})
