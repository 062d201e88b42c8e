/**
 * warcdex: web-archive indexing for Node.js.
 *
 * - {@link readRecords}: the records of a WARC/ARC file, stream or Buffer.
 * - {@link indexRecords}: index rows (the CDXJ fields and more) of one or more sources.
 * - {@link writeIndex}: a CDXJ, CDX or NDJSON index written to a file or standard output.
 */
import { createWriteStream, type WriteStream } from 'node:fs'
import { once } from 'node:events'

import { drain, openSource, sourcePath } from './batches.js'
import { ArchiveError, defaultProblemHandler } from './errors.js'
import { nativeJob, writeVia } from './output.js'
import { native } from './native.js'
import { ArchiveRecord, type RawRecord, payloadStreamAt } from './record.js'
import type {
  IndexEntry,
  IndexOptions,
  IndexSummary,
  Problem,
  ReadOptions,
  Source,
  WriteIndexOptions,
} from './types.js'

export * from './types.js'
export { ArchiveError } from './errors.js'
export { OutputExistsError } from './output.js'
export { UsageError } from './args.js'
export * from './summary.js'
export { ArchiveRecord, Headers, type HttpHead } from './record.js'
export * from './parquet.js'

export interface ReadRecordsOptions extends ReadOptions {
  /**
   * `'none'` (default): payloads are not read; `record.payload()` reads one
   * later from a file by offset. `'buffer'`: every payload is kept (up to
   * `maxPayloadBytes`), which a non-file source needs to give payloads at all.
   */
  payload?: 'none' | 'buffer'
  maxPayloadBytes?: number
}

function nameOf(source: Source, options: ReadOptions): string {
  return options.name ?? sourcePath(source) ?? '<stream>'
}

/** The records of one WARC or ARC source, in order. */
export async function* readRecords(source: Source, options: ReadRecordsOptions = {}): AsyncGenerator<ArchiveRecord> {
  const keep = options.payload === 'buffer' ? (options.maxPayloadBytes ?? 64 << 20) : 0
  const json = JSON.stringify({ keepPayloadBytes: keep })
  const opened = openSource(source, 'records', json, nameOf(source, options))
  yield* drain(opened, options, (raw: RawRecord, batch) => new ArchiveRecord(raw, opened.path, batch.payloads))
}

function indexOptionsJson(options: IndexOptions & { format?: string; sort?: boolean }, filename?: string): string {
  const records = Array.isArray(options.records) ? options.records.join(',') : options.records
  return JSON.stringify({
    records,
    postAppend: options.postAppend ?? false,
    minimal: options.minimal ?? false,
    style: options.style,
    verify: options.verify ?? false,
    dirRoot: options.dirRoot,
    format: options.format,
    sort: options.sort ?? false,
    jobs: (options as { jobs?: number }).jobs,
    strict: options.strict ?? false,
    tmpDir: (options as WriteIndexOptions).tmpDir,
    force: (options as WriteIndexOptions).force ?? false,
    filename,
  })
}

/** Index rows of one or more sources (files, directories, Buffers, streams), in order. */
export async function* indexRecords(sources: Source | Source[], options: IndexOptions = {}): AsyncGenerator<IndexEntry> {
  for (const source of expandSources(sources)) {
    const path = sourcePath(source)
    const filename = path === undefined ? (options.name ?? '-') : undefined
    const opened = openSource(source, 'index', indexOptionsJson(options, filename), nameOf(source, options))
    yield* drain(opened, options, (raw: IndexEntry) => raw)
  }
}

function expandSources(sources: Source | Source[]): Source[] {
  const list = Array.isArray(sources) ? sources : [sources]
  const out: Source[] = []
  for (const s of list) {
    const path = sourcePath(s)
    if (path === undefined) out.push(s)
    else out.push(...native.expandInputs([path]))
  }
  return out
}

/**
 * Writes an index of `sources` (files and directories) to `options.output`
 * or standard output. The whole job runs in Rust on a worker thread.
 */
export async function writeIndex(sources: Source | Source[], options: WriteIndexOptions = {}): Promise<IndexSummary> {
  const list = Array.isArray(sources) ? sources : [sources]
  const paths = list.map(sourcePath)
  if (paths.some((p) => p === undefined)) return writeIndexFromStreams(list, options)
  const files = native.expandInputs(paths as string[])
  const onProblem = options.onProblem ?? defaultProblemHandler
  let currentFile = ''
  let strictError: ArchiveError | undefined
  const cancel = new native.CancelToken()
  const abort = () => cancel.cancel()
  options.signal?.addEventListener('abort', abort, { once: true })
  try {
    const summary = JSON.parse(
      await nativeJob(native.runIndex(files, indexOptionsJson(options), options.output ?? null, (text: string) => {
        const ev = JSON.parse(text)
        if (ev.event === 'file') currentFile = ev.path
        else if (ev.event === 'note') options.onNote?.(ev.message)
        else if (ev.event === 'progress') options.onProgress?.({ file: currentFile, fileBytes: ev.fileBytes, entries: ev.entries })
        else {
          if (options.strict && ev.event === 'skipped') strictError ??= new ArchiveError(ev as Problem)
          onProblem(ev as Problem)
        }
      }, cancel)),
    ) as IndexSummary
    // Events are delivered asynchronously; let the last ones arrive.
    await new Promise((r) => setImmediate(r))
    if (strictError) throw strictError
    return summary
  } finally {
    options.signal?.removeEventListener('abort', abort)
  }
}

/** writeIndex for Buffer and stream sources: index lines come from a native cursor. */
async function writeIndexFromStreams(list: Source[], options: WriteIndexOptions): Promise<IndexSummary> {
  if (options.sort) throw new Error('sorted output needs file inputs (write unsorted, or save the stream to a file first)')
  if (!options.output) return streamIndexTo(process.stdout, list, options)
  return writeVia(options.output, options.force ?? false, async (temp) => {
    const out = createWriteStream(temp)
    const summary = await streamIndexTo(out, list, options)
    out.end()
    await once(out, 'finish')
    if (options.signal?.aborted) throw new Error('aborted')
    return summary
  })
}

async function streamIndexTo(out: WriteStream | NodeJS.WriteStream, list: Source[], options: WriteIndexOptions): Promise<IndexSummary> {
  const summary: IndexSummary = {
    files: 0, entries: 0, records: 0, skipped: 0, bytesSkipped: 0, warnings: 0, bytesRead: 0, failedFiles: 0,
    stopped: false, brokenPipe: false, cancelled: false,
  }
  const onProblem = options.onProblem ?? defaultProblemHandler
  const header = options.format === 'cdx11' ? ' CDX N b a m s k r M S V g\n' : options.format === 'cdx9' ? ' CDX N b a m s k r V g\n' : ''
  // pywb writes one header for the whole output, cdxj-indexer one per input.
  const headerOnce = options.style === 'pywb'
  if (header && headerOnce && !out.write(header)) await once(out, 'drain')
  for (const source of list) {
    summary.files++
    if (header && !headerOnce && !out.write(header)) await once(out, 'drain')
    const json = indexOptionsJson(options, options.name ?? '-')
    const opened = openSource(source, 'lines', json, nameOf(source, options))
    const feeding = opened.feed?.()
    for (;;) {
      const batch = await opened.cursor.nextBatch(options.batchSize ?? 4096)
      if (batch === null) break
      for (const p of JSON.parse(batch.payloads?.toString('utf8') ?? '[]') as Problem[]) {
        if (p.event === 'skipped') summary.skipped++
        else summary.warnings++
        if (options.strict && p.event === 'skipped') {
          opened.cursor.abort('strict: stopped at a bad record')
          await feeding
          throw new ArchiveError(p)
        }
        onProblem(p)
      }
      if (!out.write(batch.json)) await once(out, 'drain')
    }
    await feeding
  }
  return summary
}

/** Streams the payload of the record at `offset` in a WARC/ARC file (e.g. from an index row). */
export function readPayload(path: string, offset: number): import('node:stream').Readable {
  return payloadStreamAt(path, offset)
}

export interface SampleOptions {
  seed?: number
  files?: number
  /** Approximate uncompressed size of each file. */
  targetBytes?: number
  hosts?: number
  /** `warc.gz` (default), `warc`, `warc.zst`, `warc.xz`, `arc`, `arc.gz`. */
  format?: string
  omitPayloadDigest?: boolean
  prefix?: string
}

export interface SampleFile {
  path: string
  records: number
  captures: number
  bytes: number
}

/** Writes a realistic sample collection (reproducible from the seed) into `dir`. */
export async function generateSample(dir: string, options: SampleOptions = {}): Promise<SampleFile[]> {
  return JSON.parse(await native.generateSample(dir, JSON.stringify(options))) as SampleFile[]
}

/** The version of the native addon. */
export const nativeVersion = (): string => native.nativeVersion()

export * from './dump.js'
