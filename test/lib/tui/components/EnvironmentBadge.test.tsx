/** The live views' TEST / LIVE badge and the printed one are one badge: same label, same colour. */
import { describe, expect, it } from 'vitest'
import { badgeOf, environmentBadge, painter, stripAnsi } from '../../../../src/lib/output/color.js'
import { EnvironmentBadge } from '../../../../src/lib/tui/components/EnvironmentBadge.js'
import { renderAt } from '../../../helpers/render-at.js'

describe('environment badge', () => {
  it.each([
    ['live', ' LIVE ', 'red', 31],
    ['test', ' TEST ', 'yellow', 33],
  ])('%s: %j in %s, bold and inverse, printed and in the live views', async (env, label, color, code) => {
    expect(badgeOf(env)).toEqual({ label, color })
    expect(environmentBadge(painter(true), env)).toBe(`\u001B[${code}m\u001B[7m\u001B[1m${label}\u001B[22m\u001B[27m\u001B[39m`)
    const view = renderAt(<EnvironmentBadge environment={env} />, 40, 5)
    // Ink trims a line's trailing space.
    expect(stripAnsi(view.lastFrame() ?? '')).toBe(label.trimEnd())
    view.unmount()
  })
})
