/**
 * Kept at its old path for src/commands/webhooks/verify.ts until that file imports
 * ../../lib/input/stdin.js (another branch works there); delete this file then.
 */
export { readAllStdin, readStdinLines } from '../input/stdin.js'
