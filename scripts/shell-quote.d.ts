// Types for scripts/shell-quote.js, so the tests can import it under strict TypeScript.
export function shellQuote(arg: string): string
export function shellLine(args: readonly string[]): string
