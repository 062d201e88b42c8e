import type { Problem } from './types.js'

/** A record or input that could not be read, with where it happened. */
export class ArchiveError extends Error {
  readonly code: string
  readonly source: string
  readonly offset?: number

  constructor(problem: Problem) {
    super(problem.message)
    this.name = 'ArchiveError'
    this.code = problem.code
    this.source = problem.source
    this.offset = problem.offset
  }
}

export function defaultProblemHandler(problem: Problem): void {
  process.emitWarning(problem.message, { type: problem.event === 'skipped' ? 'WarcdexSkipped' : 'WarcdexWarning', code: problem.code })
}
