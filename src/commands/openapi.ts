import { Flags } from '@oclif/core'
import { BaseCommand } from '../lib/command-kit/base.js'
import { buildOpenApiDocument, type OpenApiDocument } from '../lib/contract/openapi.js'
import type { IO } from '../lib/output/io.js'
import { toYaml } from '../lib/output/yaml.js'

export default class OpenApi extends BaseCommand<typeof OpenApi, OpenApiDocument> {
  static override summary = "Print the service's API as an OpenAPI 3.1 document, to generate a client in any language."
  static override description =
    'Paths of spec part 4 (with the two operations part 4.8 only names, left open), bearer security, the request and answer ' +
    'schemas with their required fields, enums and limits (part 8), the error shape (part 2.9) on every error status, and the ' +
    'webhook deliveries (part 6). Generated from the same zod contract the CLI validates with, so it cannot drift; what the ' +
    'spec leaves "not shown" stays open. JSON by default (also with --json), YAML with --yaml. Needs no key and sends nothing. ' +
    "A running sandbox serves its own copy at GET /openapi.json (no key), which adds the sandbox's control routes (clock, " +
    'triggers, deliveries, keys, account settings, export) under the `sandbox` tag.'

  static override examples = [
    '<%= config.bin %> openapi > openapi.json',
    '<%= config.bin %> openapi --yaml > openapi.yaml',
    "<%= config.bin %> openapi | jq '.paths | keys'",
    '<%= config.bin %> openapi > openapi.json && npx openapi-typescript openapi.json -o api.d.ts   # types for a TypeScript client',
  ]

  static override flags = {
    yaml: Flags.boolean({ description: 'Print YAML instead of JSON.', exclusive: ['json'] }),
  }

  async run(): Promise<OpenApiDocument> {
    return buildOpenApiDocument()
  }

  protected override render(doc: OpenApiDocument, io: IO): void {
    if (this.flags.yaml) io.out(toYaml(doc))
    else this.printJson(doc, { pretty: true })
  }
}
