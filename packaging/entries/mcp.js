/**
 * The entry of `svc mcp` without oclif (dist-bundle/mcp.js), imported by main.js for `svc mcp`
 * with only its plain flags: an agent waits for the server's answer to `initialize`, and oclif's
 * start is about as long as the MCP SDK's. It shares the bundle's chunks with cli.js (the server,
 * the SDK, zod); src/lib/mcp/launch.ts says when it hands over to the oclif command instead.
 */
import { packageVersion } from '../../dist/lib/config/package.js'
import { fastMcp } from '../../dist/lib/mcp/launch.js'
import { MCP_FLAGS } from 'svc-bundle:mcp-flags'
import { ranCommand } from './hot-script.js'

/** True when it served; false when the oclif command must run (`--help`, other flags, an error to report). */
export function runMcp({ argv }) {
  ranCommand('mcp')
  return fastMcp({ argv, flags: MCP_FLAGS, env: process.env, version: packageVersion() })
}
