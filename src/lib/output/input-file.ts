/**
 * Kept at its old path for src/commands/webhooks/verify.ts until that file imports
 * ../../lib/input/input-file.js (another branch works there); delete this file then.
 */
export { readInputFile, tooLarge } from '../input/input-file.js'
