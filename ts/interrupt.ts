// SIGINT and SIGTERM for the CLI's commands: the running job is asked to
// stop (a stopped job publishes none of its outputs); if it has not ended
// within the grace period, this process's temporary files are removed and
// it exits. Exit codes as shells report signals: 130 and 143.
import { outputNative } from './output.js'

const CODES = { SIGINT: 130, SIGTERM: 143 } as const
type Signal = keyof typeof CODES

export class Interrupt {
  readonly controller = new AbortController()
  #signal: Signal | undefined
  readonly #handlers: [Signal, () => void][]

  /** `graceMs`: how long a job may take to stop (0 for jobs that cannot be asked). */
  constructor(graceMs = 3000) {
    this.#handlers = (Object.keys(CODES) as Signal[]).map((s) => [s, () => this.#on(s, graceMs)])
    for (const [s, h] of this.#handlers) process.on(s, h)
  }

  #on(signal: Signal, graceMs: number): void {
    const again = this.#signal !== undefined
    this.#signal ??= signal
    this.controller.abort()
    if (again || graceMs === 0) this.#exit()
    else setTimeout(() => this.#exit(), graceMs).unref()
  }

  #exit(): never {
    outputNative.removeInProgress()
    process.exit(CODES[this.#signal ?? 'SIGINT'])
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  /** 130 or 143 once a signal came, else undefined. */
  get exitCode(): number | undefined {
    return this.#signal && CODES[this.#signal]
  }

  dispose(): void {
    for (const [s, h] of this.#handlers) process.off(s, h)
  }
}
