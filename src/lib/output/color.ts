/** Minimal ANSI styling; a no-op when colour is off, so piped output never carries escape codes. */
import type { StatusTone } from '../domain/charge-states.js'

const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  gray: [90, 39],
  inverse: [7, 27],
} as const
export type Style = keyof typeof CODES

export type Paint = (style: Style | Style[], text: string) => string

export function painter(enabled: boolean): Paint {
  return (style, text) => {
    if (!enabled) return text
    const styles = Array.isArray(style) ? style : [style]
    return styles.reduce((acc, s) => `\u001B[${CODES[s][0]}m${acc}\u001B[${CODES[s][1]}m`, text)
  }
}

export const TONE_STYLE: Record<StatusTone, Style> = {
  pending: 'yellow',
  progress: 'cyan',
  success: 'green',
  ended: 'gray',
  danger: 'red',
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI escapes is the point
const ANSI = /\u001B\[[0-9;]*[A-Za-z]/g
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '')
}

/** The TEST / LIVE badge's label and colour: one source for the ANSI badge below and the live views' (tui/text/format.ts badgePieces). */
export function badgeOf(environment: string): { label: string; color: 'red' | 'yellow' } {
  return environment === 'live' ? { label: ' LIVE ', color: 'red' } : { label: ' TEST ', color: 'yellow' }
}

/** The TEST / LIVE badge shown by every human output that acts on an environment (bold, inverse). */
export function environmentBadge(paint: Paint, environment: string): string {
  const { label, color } = badgeOf(environment)
  return paint(['bold', 'inverse', color], label)
}
