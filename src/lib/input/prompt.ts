/**
 * Questions on a terminal: a plain one (the terminal echoes what is typed) and a hidden one (raw
 * mode, nothing echoed) for API keys and secrets. For interactive sessions only: callers check
 * `io.canPrompt` first and otherwise fail with the flag to pass, so a pipe or CI never hangs on a
 * question nobody will answer.
 */
import type { Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { CliError, EXIT } from '../errors.js'

/** Ctrl-C or Ctrl-D at a prompt. Exit 2, like gh's cancel. */
export class PromptCancelled extends CliError {
  constructor(message = 'Cancelled.') {
    super(message, { exitCode: EXIT.usage, code: 'cancelled' })
  }
}

/** What a question needs of the terminal: output/io.ts's IO has it (input imports nothing of output). */
export interface PromptIO {
  /** Whether a prompt may be shown: stdin and stderr are TTYs and CI is not set. */
  canPrompt: boolean
  stdin: Readable
  /** Writes to stderr, where the question goes. */
  err(text: string): void
}

type TtyInput = Readable & { isRaw?: boolean; setRawMode?: (mode: boolean) => unknown }

function assertInteractive(io: PromptIO): void {
  if (!io.canPrompt) {
    // A bug in the caller, who should have offered a flag instead: never block a pipe.
    throw new CliError('Cannot ask a question: not an interactive terminal.', { exitCode: EXIT.usage, code: 'not_interactive' })
  }
}

/** Asks a question whose answer is echoed. Returns the trimmed answer, or `fallback` for an empty one. */
export async function promptText(io: PromptIO, question: string, opts: { fallback?: string } = {}): Promise<string> {
  assertInteractive(io)
  const suffix = opts.fallback ? ` (${opts.fallback})` : ''
  io.err(`${question}${suffix} `)
  const answer = (await readLine(io.stdin as TtyInput, false)).trim()
  return answer || opts.fallback || ''
}

/** Asks for a secret without echoing it. Returns it trimmed ('' when the user just pressed Enter). */
export async function promptHidden(io: PromptIO, question: string): Promise<string> {
  assertInteractive(io)
  io.err(`${question} `)
  const stdin = io.stdin as TtyInput
  const raw = typeof stdin.setRawMode === 'function'
  try {
    return (await readLine(stdin, raw)).trim()
  } finally {
    // Raw mode swallowed the Enter, so the cursor is still on the question's line.
    if (raw) io.err('\n')
  }
}

/** Asks a yes/no question; Enter gives `fallback`. */
export async function promptConfirm(io: PromptIO, question: string, fallback = false): Promise<boolean> {
  const answer = await promptText(io, `${question} ${fallback ? '[Y/n]' : '[y/N]'}`)
  if (!answer) return fallback
  return /^y(es)?$/i.test(answer)
}

/**
 * Reads one line, by hand rather than with readline, so that the same loop serves raw mode (where
 * the terminal does no line editing: backspace, Ctrl-U, Ctrl-C and escape sequences are handled
 * here) and a cooked terminal. What follows the line stays in the stream for the next question.
 */
function readLine(stdin: TtyInput, raw: boolean): Promise<string> {
  if (stdin.readableEnded) return Promise.reject(new PromptCancelled('No answer: the input is closed.'))
  const wasRaw = Boolean(stdin.isRaw)
  if (raw) stdin.setRawMode?.(true)
  const decoder = new StringDecoder('utf8')
  let value = ''
  return new Promise<string>((resolve, reject) => {
    const finish = (error?: Error, rest?: string) => {
      stdin.off('data', onData)
      stdin.off('end', onEnd)
      stdin.off('error', onError)
      if (raw) stdin.setRawMode?.(wasRaw)
      stdin.pause()
      if (rest) stdin.unshift(Buffer.from(rest, 'utf8'))
      if (error) reject(error)
      else resolve(value)
    }
    const onData = (chunk: Buffer | string) => {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk)
      for (let i = 0; i < text.length; i++) {
        const ch = text[i] as string
        if (ch === '\r' || ch === '\n') {
          const next = ch === '\r' && text[i + 1] === '\n' ? i + 2 : i + 1
          return finish(undefined, text.slice(next))
        }
        if (ch === '\u0003') return finish(new PromptCancelled())
        if (ch === '\u0004') return value ? finish(undefined, text.slice(i + 1)) : finish(new PromptCancelled())
        if (ch === '\u007f' || ch === '\b') {
          value = Array.from(value).slice(0, -1).join('')
        } else if (ch === '\u0015') {
          value = ''
        } else if (ch === '\u001b') {
          // Arrow keys and friends (ESC [ … letter): skip the whole sequence.
          if (text[i + 1] === '[' || text[i + 1] === 'O') {
            i += 2
            while (i < text.length && !/[A-Za-z~]/.test(text[i] as string)) i++
          }
        } else if (ch >= ' ') {
          value += ch
        }
      }
    }
    const onEnd = () => (value ? finish() : finish(new PromptCancelled('No answer: the input ended.')))
    const onError = (error: Error) => finish(error)
    stdin.on('data', onData)
    stdin.once('end', onEnd)
    stdin.once('error', onError)
    stdin.resume()
  })
}
