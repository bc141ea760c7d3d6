/**
 * The order of the rounds of a suite that times this build and the --vs build (issue 39.4). Each
 * case of the other build (`{ mine: NAME }`) runs right next to this build's case NAME, the two
 * in turn going first (this build in even rounds), so that each sees the same moment of the
 * machine and, over two rounds, follows the same cases as the other. With the pair a few cases
 * apart and the whole round reversed every other one, each build of a pair always followed
 * different cases, and a case that slowed the next one (a view killed on its pseudo-terminal
 * still exiting) made two checkouts of one commit look 14–22 % apart in the first frame of
 * `charges watch`; since 15 pairs hold 8 rounds of one order and 7 of the other, the median
 * pair took the side of the majority (start-up: +11 % in a pass, −3.5 % in the pass that swapped
 * them). The cases themselves run in the reverse order every other two rounds, so that no case
 * always runs right after another. Pure, so the order is unit-tested (test/bench/rounds.test.ts).
 */

/**
 * The case indexes of round `round` (0-based), each twin right after (even rounds) or right
 * before (odd rounds) its own case; `swap` (the budget's second pass) starts one round later.
 */
export function roundOrder(cases, round, swap = false) {
  const twins = new Map()
  cases.forEach((c, i) => {
    if (c.mine === undefined) return
    const own = cases.findIndex((o) => o.name === c.mine && o.mine === undefined)
    if (own < 0) throw new Error(`${c.name}: no case named ${c.mine} to pair with`)
    twins.set(own, i)
  })
  const r = round + (swap ? 1 : 0)
  const groups = []
  cases.forEach((c, i) => {
    if (c.mine !== undefined) return
    const twin = twins.get(i)
    groups.push(twin === undefined ? [i] : r % 2 === 0 ? [i, twin] : [twin, i])
  })
  return (Math.floor(r / 2) % 2 === 0 ? groups : groups.reverse()).flat()
}

/** The runs to take when two builds are compared in pairs: an even number, so that each build goes first in as many rounds as the other. */
export function pairedRuns(runs) {
  return runs % 2 === 0 ? runs : runs + 1
}
