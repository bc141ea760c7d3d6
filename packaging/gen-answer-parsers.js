#!/usr/bin/env node
/**
 * `npm run gen:answers`: src/lib/generated/answer-parsers.ts, the API client's zod-free fast path.
 *
 * The zod schemas in src/lib/contract stay the one source of truth. zod's own ahead-of-time
 * compiler (`compileFn` of zod/v4/core, the code behind `z.compile`) turns each answer schema
 * into a plain function that returns exactly what `schema.parse` returns, or zod's INVALID
 * sentinel; this script writes those functions, with the constants they close over (regular
 * expressions, sets of names, two helpers), into a TypeScript module that imports nothing. The
 * client decodes a valid answer with them, so a command such as `svc charges get` never loads
 * zod (≈ 10 % of its start-up); on INVALID it loads the schema and lets zod itself word the error.
 *
 * test/lib/contract/answer-parsers.test.ts fails when the committed file differs from a fresh
 * generation (run this script after changing a schema) and checks the parsers against zod.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))
export const OUTPUT = join(ROOT, 'src/lib/generated/answer-parsers.ts')

/** The answers the API client decodes: exported name → [schema module (src/lib/contract), schema export, TS type export]. */
export const ANSWERS = {
  parseCharge: ['schemas', 'ChargeSchema', 'Charge'],
  parseChargeList: ['schemas', 'ChargeListSchema', 'ChargeList'],
  parseAccount: ['schemas', 'AccountSchema', 'Account'],
  parseWebhookTestResponse: ['schemas', 'WebhookTestResponseSchema', 'WebhookTestResponse'],
  parseErrorBody: ['schemas', 'ErrorBodySchema', 'ErrorBody'],
  parseWithdrawal: ['withdrawals', 'WithdrawalSchema', 'Withdrawal'],
}

/** An INVALID from these is proof that zod rejects too (the error-body check has no fallback). */
const MUST_BE_DEFINITE = new Set(['parseErrorBody'])

/**
 * The source of the module. `schemas` maps each export name of ANSWERS to its zod schema;
 * `core` is zod/v4/core (compileFn, util).
 */
export function generateAnswerParsers(schemas, core) {
  const helpers = new Map()
  const known = new Map([
    [core.util.isPlainObject, { name: 'isPlainObject', source: [core.util.isObject, core.util.isPlainObject].map((f) => f.toString()) }],
    [Object.prototype.propertyIsEnumerable, { name: 'propertyIsEnumerable', expression: 'Object.prototype.propertyIsEnumerable' }],
    // It reads a module constant of zod's util.js, written out here with it (the tests compare
    // lengths of strings with surrogate pairs against zod's).
    [core.util.codePointLength, { name: 'codePointLength', source: ['const highSurrogate = /[\\uD800-\\uDBFF]/', core.util.codePointLength.toString()] }],
  ])
  const constant = (value, where) => {
    if (typeof value === 'symbol' && value === Symbol.for('zod.compile.invalid')) return 'INVALID'
    if (value instanceof RegExp) return `new RegExp(${JSON.stringify(value.source)}, ${JSON.stringify(value.flags)})`
    if (value instanceof Set) {
      const items = [...value]
      if (!items.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) throw new Error(`${where}: a Set constant holds something other than primitives`)
      return `new Set(${JSON.stringify(items)})`
    }
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return JSON.stringify(value)
    if (typeof value === 'function' && known.has(value)) {
      const helper = known.get(value)
      helpers.set(helper.name, helper)
      return helper.expression ?? helper.name
    }
    throw new Error(
      `${where}: zod's compiled parser closes over ${typeof value === 'function' ? `the function ${value.name || '(anonymous)'}` : String(value)}, which this generator cannot write out; teach constant() about it`,
    )
  }

  const parsers = []
  const shapes = []
  for (const [exportName, [module, schemaName, typeName]] of Object.entries(ANSWERS)) {
    const schema = schemas[exportName]
    if (!schema) throw new Error(`no schema given for ${exportName} (${schemaName})`)
    const { names, body, values, definite } = compiled(core, schema, schemaName)
    if (MUST_BE_DEFINITE.has(exportName) && !definite) throw new Error(`${schemaName}: zod's compiled parser is not definite, so INVALID would not prove a rejection`)
    const args = values.map((v, i) => constant(v, `${schemaName} (${names[i]})`))
    parsers.push(
      [
        `/** \`${schemaName}.parse(input)\` when it succeeds, else undefined${definite ? ' (zod rejects the input)' : ' (zod may reject it, or accept it with another path of its own)'}. */`,
        `export const ${exportName}: (input: unknown) => ${typeName} | undefined = fastPath(`,
        `  (function (${names.join(', ')}) {`,
        body
          .split('\n')
          .map((line) => (line ? `    ${line}` : line))
          .join('\n'),
        `  })(${args.join(', ')}),`,
        ')',
      ].join('\n'),
    )
    shapes.push(`  ${shapeName(exportName)}: { parse: ${exportName}, schema: () => import('../contract/${module}.js').then((m) => m.${schemaName}) } as AnswerShape<${typeName}>,`)
  }
  const types = {}
  for (const [module, , typeName] of Object.values(ANSWERS)) (types[module] ??= new Set()).add(typeName)
  return [
    '// Generated by packaging/gen-answer-parsers.js from the zod schemas of src/lib/contract with',
    "// zod's own compiler (npm run gen:answers); do not edit. test/lib/contract/answer-parsers.test.ts",
    '// fails when this file is out of date.',
    '// @ts-nocheck',
    "import type { z } from 'zod'",
    ...Object.entries(types).map(([module, names]) => `import type { ${[...names].join(', ')} } from '../contract/${module}.js'`),
    '',
    '/** How an answer is decoded: its compiled parser, and its schema (loaded only for what the parser refuses). */',
    'export interface AnswerShape<T> {',
    '  parse(input: unknown): T | undefined',
    '  schema(): Promise<z.ZodType<T>>',
    '}',
    '',
    "const INVALID = Symbol.for('zod.compile.invalid')",
    '',
    ...[...helpers.values()].flatMap((h) => h.source ?? []),
    '',
    'function fastPath(parse) {',
    '  return (input) => {',
    '    const out = parse(input)',
    '    return out === INVALID ? undefined : out',
    '  }',
    '}',
    '',
    parsers.join('\n\n'),
    '',
    '/** Each answer: its parser and a loader of its zod schema, for the API client. */',
    'export const ANSWER_SHAPES = {',
    ...shapes,
    '}',
    '',
  ].join('\n')
}

/** `parseChargeList` → `chargeList`. */
function shapeName(exportName) {
  const rest = exportName.replace(/^parse/, '')
  return rest[0].toLowerCase() + rest.slice(1)
}

/** zod's compiled parser for `schema`: its parameter names, body, the values it is called with, and whether INVALID is definite. */
function compiled(core, schema, where) {
  let captured
  const RealFunction = globalThis.Function
  // compileFn builds the parser with `new Function(...names, body)(...values)`: watch that call.
  globalThis.Function = new Proxy(RealFunction, {
    construct(target, args) {
      const factory = Reflect.construct(target, args)
      return (...values) => {
        captured = { names: args.slice(0, -1), body: args.at(-1), values }
        return factory(...values)
      }
    },
  })
  let fn
  try {
    fn = core.compileFn(schema)
  } finally {
    globalThis.Function = RealFunction
  }
  if (!captured) throw new Error(`${where}: zod's compiler made no parser`)
  return { ...captured, definite: fn.definite === true }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const core = await import('zod/v4/core')
  const modules = {}
  const schemas = {}
  for (const [exportName, [module, schemaName]] of Object.entries(ANSWERS)) {
    modules[module] ??= await import(join(ROOT, 'dist/lib/contract', `${module}.js`))
    schemas[exportName] = modules[module][schemaName]
  }
  writeFileSync(OUTPUT, generateAnswerParsers(schemas, core))
  process.stdout.write(`gen-answer-parsers: wrote ${OUTPUT}\n`)
}
