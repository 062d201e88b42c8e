// Command-line parsing shared by the commands: a usage error carries the
// command's help, and `warcdex`'s main turns it into exit code 2.
import { parseArgs, type ParseArgsConfig } from 'node:util'

/** Arguments that cannot work: the CLI exits 2 with the message. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const

type Options = NonNullable<ParseArgsConfig['options']>
type Config<O extends Options> = { args: string[]; options: O & typeof HELP_OPTION; allowPositionals: true; strict: true }

/** Parses `args` with `options` plus `-h/--help`; unknown options are a UsageError. */
export function parse<O extends Options>(args: string[], options: O, help: string): ReturnType<typeof parseArgs<Config<O>>> {
  try {
    return parseArgs({ args, options: { ...options, ...HELP_OPTION }, allowPositionals: true, strict: true })
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n\n${help}`)
  }
}
