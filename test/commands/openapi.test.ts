/**
 * `svc openapi [--yaml]` (CLI.md 0.4): prints the service's OpenAPI document, the same object the
 * sandbox serves at /openapi.json (less the sandbox's own routes), with no key and no request.
 */
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import OpenApi from '../../src/commands/openapi.js'
import { buildOpenApiDocument } from '../../src/lib/contract/openapi.js'
import { sandboxOpenApiDocument } from '../../src/lib/sandbox/http/openapi.js'
import { runCommand } from '../helpers/run-command.js'
import { useSandboxClient } from '../helpers/sandbox-client.js'

const expected = JSON.parse(JSON.stringify(buildOpenApiDocument()))

describe('svc openapi', () => {
  it('prints the document as JSON, with no profile or key', async () => {
    const r = await runCommand(OpenApi, [], { env: { SVC_API_KEY: undefined, SVC_PROFILE: undefined } })
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual(expected)
    expect(r.stderr).toBe('')
  })

  it('--json prints the same document', async () => {
    const r = await runCommand(OpenApi, ['--json'])
    expect(JSON.parse(r.stdout)).toEqual(expected)
  })

  it('--yaml prints it as YAML', async () => {
    const r = await runCommand(OpenApi, ['--yaml'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout.startsWith('openapi: "3.1.0"\n')).toBe(true)
    expect(parse(r.stdout)).toEqual(expected)
  })

  it('--yaml with --json is a usage error (exit 2)', async () => {
    const r = await runCommand(OpenApi, ['--yaml', '--json'])
    expect(r.exitCode).toBe(2)
    expect(r.stdout).toBe('')
  })
})

describe('GET /openapi.json on the sandbox', () => {
  const ctx = useSandboxClient()

  it('answers without a key: the same document plus the control routes, with this sandbox as the server', async () => {
    const res = await fetch(`${ctx.sandbox.baseUrl}/openapi.json`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const served = (await res.json()) as { servers: unknown; paths: Record<string, Record<string, { tags: string[] }>> }
    expect(served).toEqual(JSON.parse(JSON.stringify(sandboxOpenApiDocument(ctx.sandbox.baseUrl))))
    expect(served.servers).toEqual([{ url: ctx.sandbox.baseUrl, description: 'This local sandbox.' }])
    expect(served.paths['/v1/charges']).toEqual(expected.paths['/v1/charges'])
    expect(served.paths['/_sandbox/clock/advance']!.post!.tags).toEqual(['sandbox'])
  })
})
