/**
 * `summarize`: the collection summary of the Internet Archive's cdx-summary
 * (PyPI `cdxsummary`), with the same numbers, from CDX (11 or 9 fields),
 * CDXJ and WARC/ARC inputs, plus extras cdx-summary does not have. The pass
 * over the lines runs in Rust on a libuv worker thread.
 */
import { native, type NativeBinding } from './native.js'

export { formatSummaryText, naturalSize, naturalDate } from './summary-text.js'
export { renderSummaryHtml } from './summary-html.js'

/** `status group → count`: `2XX`, `3XX`, `4XX`, `5XX`, `Other`. */
export type StatusRow = Record<string, number>

/** cdx-summary's summary JSON (`cdxsummary -j`), keys in its order. */
export interface CdxSummary {
  captures: number
  /** Consecutive unique URLs (SURT changes from the previous line: right only for sorted input). */
  urls: number
  /** Consecutive unique hosts (the same caveat). */
  hosts: number
  /** Total WARC records size: the sum of the compressed record lengths. */
  bytes: number
  /** 14-digit timestamps; empty when nothing was read. */
  first: string
  last: string
  tophosts: Record<string, number>
  /** 13 MIME groups × 5 status groups. */
  mimestatus: Record<string, StatusRow>
  /** P0..P4, Other × Q0..Q4, Other. */
  pathquery: Record<string, Record<string, number>>
  /** year → months 01..12. */
  yearmonth: Record<string, Record<string, number>>
  /** `[timestamp, url]` of randomly chosen OK HTML captures. */
  samples: [string, string][]
}

/** What warcdex adds to cdx-summary's numbers. */
export interface SummaryExtras {
  /** Non-blank lines read, and those cdx-summary would skip (headers, `dns:` keys, malformed). */
  lines: number
  skippedLines: number
  /** Distinct values are counted exactly up to this many, then with HyperLogLog (~0.8% error). */
  exactLimit: number
  uniqueUrls: { count: number; exact: boolean }
  uniqueHosts: { count: number; exact: boolean }
  registeredDomains: { count: number; exact: boolean; top: [string, number][] }
  statusTop: [string, number][]
  mimeTop: [string, number][]
  /** Captures with MIME `warc/revisit`. */
  revisits: number
  /** Non-revisit captures whose digest an earlier capture already had (`of`: those with a digest). */
  duplicatesByDigest: { count: number; of: number; distinctDigests: number; exact: boolean }
  files: number
  recordsPerFile: [string, number][]
}

export interface SummaryInput {
  name: string
  kind: 'cdx' | 'cdxj' | 'warc' | 'empty'
  compression: string
  skippedRecords: number
}

export interface SummaryResult {
  summary: CdxSummary
  /**
   * The summary as cdx-summary prints it (`json.dumps(indent=2)`, its key
   * order): parsed, months "10".."12" come before "01", as JavaScript
   * orders integer-like keys first.
   */
  summaryJson: string
  /** cdx-summary's raw report (`cdxsummary -r`), when asked for, and its text. */
  report?: CdxSummary
  reportJson?: string
  extras: SummaryExtras
  inputs: SummaryInput[]
}

export interface SummarizeOptions {
  /** Top hosts (default 10; `null` or a negative number: all). */
  top?: number | null
  /** Random OK HTML samples (default 10). */
  samples?: number
  /** Seed for the samples; without it each run draws anew (as cdx-summary does). */
  seed?: number
  /** Distinct URLs/digests counted exactly up to this many (default 100,000), then estimated. */
  exactLimit?: number
  /** Also compute cdx-summary's raw report (`-r`). */
  report?: boolean
}

type SummaryBinding = NativeBinding & { summarize(inputs: string[], optionsJson: string): Promise<string> }

/**
 * Summarizes CDX, CDXJ and WARC/ARC files (plain, gzip, bzip2, xz, zstd),
 * directories of them, or `'-'` (standard input), read in order as one stream.
 */
export async function summarize(inputs: string | string[], options: SummarizeOptions = {}): Promise<SummaryResult> {
  const list = Array.isArray(inputs) ? inputs : [inputs]
  const json = JSON.stringify({
    top: options.top === null ? -1 : options.top,
    samples: options.samples,
    seed: options.seed,
    exactLimit: options.exactLimit,
    report: options.report ?? false,
  })
  return JSON.parse(await (native as SummaryBinding).summarize(list, json)) as SummaryResult
}
