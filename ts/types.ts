import type { Readable } from 'node:stream'

/** Something warcdex can read: a path, bytes, or a stream of bytes. */
export type Source = string | URL | Uint8Array | Readable | AsyncIterable<Uint8Array>

/** Which records become index rows. */
export type RecordSelection = 'default' | 'all' | string[]

export type IndexFormat = 'cdxj' | 'cdx11' | 'cdx9' | 'ndjson'

/** Whose conventions index fields follow. */
export type IndexStyle = 'cdxj-indexer' | 'cdx-writer' | 'pywb'

/** A record that could not be read (skipped) or a warning about one. */
export interface Problem {
  event: 'skipped' | 'warning'
  /** ENOTARCHIVE, ETRUNCATED, ECORRUPT, EBADRECORD, EIO, EUNSUPPORTED, EDIGEST (--verify) */
  code: string
  /** The input's name. */
  source: string
  /** Byte offset in the input (compressed bytes) where it happened. */
  offset?: number
  message: string
}

export interface ReadOptions {
  /** Called for each skipped record and warning. Default: `process.emitWarning`. */
  onProblem?: (problem: Problem) => void
  /** Throw an {@link ArchiveError} at the first record that cannot be read. */
  strict?: boolean
  /** Name used in messages and in the filename field for Buffer and stream sources. */
  name?: string
  /** Items per batch crossing from Rust into JavaScript. */
  batchSize?: number
}

export interface IndexOptions extends ReadOptions {
  records?: RecordSelection
  /** Key POST/PUT captures by their request body (cdxj-indexer `-p`; with style `pywb`, pywb's `-p`). */
  postAppend?: boolean
  /**
   * `'cdxj-indexer'` (default), `'cdx-writer'` (Internet Archive CDX-Writer) or
   * `'pywb'` (pywb 2.x `cdx-indexer`: its record selection, fields, POST
   * append, one CDX header per output and sorting that keeps repeated lines).
   */
  style?: IndexStyle
  /**
   * pywb's minimal index (`cdx-indexer -mj`), style `'pywb'` only: HTTP headers
   * are not read, so rows have no mime (but `warc/revisit`) and no status, and
   * computed digests cover the whole record block. CDXJ or NDJSON output only;
   * cannot be combined with `postAppend`.
   */
  minimal?: boolean
  /** Recompute block and payload digests; each mismatch is reported as a warning. */
  verify?: boolean
  /** Write file names relative to this directory instead of base names. */
  dirRoot?: string
}

/** One index row: the CDXJ fields, and everything else warcdex knows of the record. */
export interface IndexEntry {
  urlkey: string
  /** 14 digits, UTC. */
  timestamp: string
  url?: string
  mime?: string
  status?: string
  /** As written in the record (`sha1:...`), or computed when absent. */
  digest?: string
  /** Compressed length of the record (its gzip member), or its length in an uncompressed file. */
  length: number
  offset: number
  filename: string
  recordType: string
  recordId?: string
  /** WARC-Date as written, with full precision (or the ARC date). */
  date?: string
  payloadLength?: number
  /** Full Content-Type, with parameters. */
  contentType?: string
  location?: string
  /** CDX-Writer style: Location of a redirect. */
  redirect?: string
  /** CDX-Writer style: robots flags A (noarchive), F (nofollow), I (noindex). */
  robotflags?: string
  method?: string
  requestBody?: string
  /** Style `pywb`: WARC-Json-Metadata (CDXJ `metadata`). */
  metadata?: string
  /** Style `pywb`: WARC-Identified-Payload-Type (CDXJ `mime-detected`). */
  mimeDetected?: string
  /** Present and false when offsets count decoded bytes (records sharing one gzip member). */
  seekable?: false
  /** Present when the record's content is shorter than its declared length. */
  truncated?: true
}

export interface WriteIndexOptions extends IndexOptions {
  format?: IndexFormat
  /**
   * A file path; standard output when absent. The file appears under this
   * name only when complete (written under a hidden temporary name first);
   * an aborted or failed job leaves whatever was there before.
   */
  output?: string
  /** Replace an existing `output` file (otherwise an OutputExistsError). */
  force?: boolean
  /** Where sorted runs spill (default: the system's temporary directory). */
  tmpDir?: string
  /** Things worth knowing that are not about the input, such as leftovers of an interrupted run that were removed. */
  onNote?: (message: string) => void
  /**
   * Sorted output (bounded memory, spills to temporary files), de-duplicated
   * except in style `pywb`, whose sort keeps repeated lines.
   */
  sort?: boolean
  /** Threads to index files with (large .warc.gz files are split at record members); 0: one per core. Default 1. */
  jobs?: number
  /** Called about every 100 ms with progress. */
  onProgress?: (progress: { file: string; fileBytes: number; entries: number }) => void
  /** Aborts the job. */
  signal?: AbortSignal
}

/** What a finished {@link writeIndex} job did. */
export interface IndexSummary {
  files: number
  entries: number
  records: number
  skipped: number
  bytesSkipped: number
  warnings: number
  bytesRead: number
  failedFiles: number
  /** Stopped early at a bad record (strict mode). */
  stopped: boolean
  /** The reader of the output went away (e.g. `| head`). */
  brokenPipe: boolean
  cancelled: boolean
}
