// Items of a native cursor, batch by batch, from a file or from bytes pushed
// out of a Buffer, a Node stream or any async iterable.
import { fileURLToPath } from 'node:url'

import { defaultProblemHandler, ArchiveError } from './errors.js'
import { native, type NativeBatch, type NativeCursor } from './native.js'
import type { Problem, ReadOptions, Source } from './types.js'

/** Bytes queued in Rust before the feeder waits for the worker to catch up. */
const HIGH_WATER = 8 << 20
const LOW_WATER = 2 << 20

export interface OpenedSource {
  cursor: NativeCursor
  /** The file path, when the source is a file. */
  path?: string
  /** Pushes the bytes of a non-file source; resolves when all are queued. */
  feed?: () => Promise<void>
}

export function sourcePath(source: Source): string | undefined {
  if (typeof source === 'string') return source
  if (source instanceof URL) return fileURLToPath(source)
  return undefined
}

export function openSource(source: Source, kind: 'index' | 'lines' | 'records', optionsJson: string, name: string): OpenedSource {
  const path = sourcePath(source)
  if (path !== undefined) return { cursor: native.Cursor.openFile(path, optionsJson, kind), path }
  const cursor = native.Cursor.openPush(name, optionsJson, kind)
  const feed = async () => {
    try {
      if (source instanceof Uint8Array) {
        cursor.push(source)
      } else {
        for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
          cursor.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
          if (cursor.queuedBytes() > HIGH_WATER) await cursor.waitDrain(LOW_WATER)
        }
      }
      cursor.end()
    } catch (e) {
      cursor.abort(`reading the input stream failed: ${(e as Error).message}`)
    }
  }
  return { cursor, feed }
}

export type Item<T> = { event: 'item'; value: T } | Problem

/**
 * Yields the parsed items of every batch of `opened`; problems go to the
 * handler (or throw in strict mode).
 */
export async function* drain<T>(
  opened: OpenedSource,
  options: ReadOptions,
  parse: (raw: any, batch: NativeBatch) => T,
): AsyncGenerator<T> {
  const onProblem = options.onProblem ?? defaultProblemHandler
  const feeding = opened.feed?.()
  let finished = false
  try {
    for (;;) {
      const batch = await opened.cursor.nextBatch(options.batchSize ?? 512)
      if (batch === null) break
      const items = JSON.parse(batch.json.toString('utf8')) as any[]
      for (const raw of items) {
        if (raw.event === 'skipped' || raw.event === 'warning') {
          if (options.strict && raw.event === 'skipped') throw new ArchiveError(raw as Problem)
          onProblem(raw as Problem)
        } else {
          yield parse(raw, batch)
        }
      }
    }
    finished = true
  } finally {
    if (!finished) opened.cursor.abort('the reader stopped early')
    await feeding
  }
}
