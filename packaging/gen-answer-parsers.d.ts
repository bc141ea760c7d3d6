// Types of packaging/gen-answer-parsers.js, for the test that checks the generated file.
/** Where the generated module is written. */
export declare const OUTPUT: string
/** Exported parser name → [schema module under src/lib/contract, schema export, TypeScript type export]. */
export declare const ANSWERS: Record<'parseCharge' | 'parseChargeList' | 'parseAccount' | 'parseWebhookTestResponse' | 'parseErrorBody' | 'parseWithdrawal', [string, string, string]>
/** The generated module's source, from each parser's zod schema and zod/v4/core. */
export declare function generateAnswerParsers(schemas: Record<string, unknown>, core: unknown): string
