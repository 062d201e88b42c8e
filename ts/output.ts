// The output rules on the JavaScript side: files are written under a
// temporary name and renamed when complete (the Rust core does the naming,
// syncing and cleanup; see crates/warcdex-core/src/output), and an existing
// output is refused with an OutputExistsError unless forced.
import { UsageError } from './args.js'
import { native } from './native.js'

/** An output file or dataset already exists and was not to be replaced. */
export class OutputExistsError extends Error {
  readonly code = 'EEXIST'
  constructor(message: string) {
    super(message)
    this.name = 'OutputExistsError'
  }
}

const EXISTS_PREFIX = 'EEXIST: '

const USAGE_PREFIX = 'EUSAGE: '

/** The native error as an OutputExistsError when it refused an existing output, a UsageError when it refused the arguments. */
export function outputError(e: unknown): unknown {
  const message = (e as Error)?.message
  if (typeof message === 'string' && message.startsWith(EXISTS_PREFIX)) return new OutputExistsError(message.slice(EXISTS_PREFIX.length))
  if (typeof message === 'string' && message.startsWith(USAGE_PREFIX)) return new UsageError(message.slice(USAGE_PREFIX.length))
  return e
}

/** Awaits a native job, translating its refusals of existing outputs. */
export async function nativeJob<T>(p: Promise<T>): Promise<T> {
  try {
    return await p
  } catch (e) {
    throw outputError(e)
  }
}

interface OutputNative {
  writeFileWhole(path: string, data: Buffer, force: boolean): string[]
  reserveOutputFile(path: string, force: boolean): string
  finishOutputFile(temp: string, path: string, force: boolean, keep: boolean): void
  removeInProgress(): number
}

export const outputNative = native as unknown as OutputNative

/** Writes `data` to `path` whole; an existing file only with `force`. Returns notes on leftovers removed. */
export function writeWhole(path: string, data: string | Buffer, force = false): string[] {
  try {
    return outputNative.writeFileWhole(path, typeof data === 'string' ? Buffer.from(data) : data, force)
  } catch (e) {
    throw outputError(e)
  }
}

/**
 * Lets `write(tempPath)` fill a temporary file beside `path`, then publishes
 * it under `path`; removes it if `write` fails.
 */
export async function writeVia<T>(path: string, force: boolean, write: (tempPath: string) => Promise<T>): Promise<T> {
  let temp: string
  try {
    temp = outputNative.reserveOutputFile(path, force)
  } catch (e) {
    throw outputError(e)
  }
  let result: T
  try {
    result = await write(temp)
  } catch (e) {
    outputNative.finishOutputFile(temp, path, force, false)
    throw e
  }
  try {
    outputNative.finishOutputFile(temp, path, force, true)
  } catch (e) {
    throw outputError(e)
  }
  return result
}
