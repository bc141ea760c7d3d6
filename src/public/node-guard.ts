/**
 * The first import of each library entry (svc-cli/client, svc-cli/sandbox, svc-cli/webhooks): on a
 * Node.js older than {@link MIN_NODE}, importing the entry throws this one Error instead of a
 * TypeError from inside undici (it reads zlib functions an old Node lacks) or ERR_UNKNOWN_BUILTIN_MODULE
 * (node:sqlite). ES modules evaluate their imports depth first, in order: this module imports
 * nothing, so it runs before anything heavy is evaluated. Keep it the first import of each entry.
 */

/** The oldest Node.js the package runs on: the pinned undici's own `engines` (package.json says the same). */
export const MIN_NODE = '22.19'

const [needMajor, needMinor] = MIN_NODE.split('.').map(Number) as [number, number]
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
if (major < needMajor || (major === needMajor && minor < needMinor)) {
  throw new Error(
    `svc-cli needs Node.js ${MIN_NODE} or newer (for undici, its HTTP client, and node:sqlite, the sandbox's store); this is ${process.version}. Install a current Node.js (https://nodejs.org), e.g. \`nvm install 24\`.`,
  )
}
