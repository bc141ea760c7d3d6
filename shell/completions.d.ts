// Types for shell/completions.js, so the tests can import it under strict TypeScript.
export interface CompletionInput {
  bin: string
  commands: Array<{ id: string; summary?: string; description?: string; hidden?: boolean; aliases?: string[]; flags?: object; args?: object }>
  topics?: Record<string, string | undefined>
  eventTypes?: readonly string[]
  methods?: readonly string[]
}
export interface CompletionModel {
  bin: string
  paths: string[]
  commands: Array<{ id: string; hidden: boolean; summary?: string; argOptions: string[]; flags: Array<{ name: string; char?: string; takesValue: boolean; allowNo: boolean; options?: string[]; summary?: string }> }>
  children(path: string): Array<{ word: string; summary: string }>
}
export function completionModel(input: CompletionInput): CompletionModel
export function bashCompletion(model: CompletionModel): string
export function zshCompletion(model: CompletionModel): string
export function fishCompletion(model: CompletionModel): string
export function loadModel(root?: string): Promise<CompletionModel>
