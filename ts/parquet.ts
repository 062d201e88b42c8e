/**
 * Common Crawl cc-index-table datasets: {@link writeParquet} converts WARC/ARC
 * files or CDX(J) indexes into Hive-partitioned Parquet
 * (`crawl=<name>/subset=<subset>/part-*.parquet`); {@link queryDataset} runs
 * SQL over such a dataset with DuckDB, as the view `ccindex` (also
 * `"ccindex"."ccindex"`, so Athena-style queries run unchanged).
 */
import { statSync } from 'node:fs'

import { native } from './native.js'
import { nativeJob, writeVia } from './output.js'

export interface ParquetOptions {
  /** Crawl name for every row (default: parsed from Common Crawl paths, else `unknown`). */
  crawl?: string
  /** Partition columns, from `crawl` and `subset` (default both; `[]` for none). */
  partitionBy?: string[]
  /** `zstd` (default), `gzip`, `snappy` or `none`. */
  compression?: 'zstd' | 'gzip' | 'snappy' | 'none'
  /** Rows per file at most (default 10,000,000). */
  maxFileRows?: number
  /** Rows per row group (default 100,000; see the README for the choice). */
  rowGroupRows?: number
  /** Rows per data page (default 5,000). */
  pageRows?: number
  /** Bloom filters on url_host_registered_domain and url_surtkey. */
  bloomFilters?: boolean
  /** Memory for rows before a sorted run is spilled to disk (default 512 MiB). */
  sortBudgetBytes?: number
  /** Directory for spilled runs (default: the system's). */
  tmpDir?: string
  /**
   * When `outDir` already holds a dataset: `'error'` (default) refuses with an
   * OutputExistsError, `'append'` adds the new files beside the old ones,
   * `'overwrite'` replaces the dataset. Either way the new state appears at
   * once, when every input is read, with a `_SUCCESS` marker.
   */
  mode?: 'error' | 'append' | 'overwrite'
  /**
   * Which records of WARC/ARC inputs become rows: `'captures'` (default:
   * response, revisit and resource records of http(s)/ftp URLs, as Common
   * Crawl's tables hold), `'index'` (what cdxj-indexer indexes), `'all'`, or
   * a list of WARC-Types.
   */
  records?: 'captures' | 'index' | 'all' | string[]
  /**
   * What a directory holding both archives and indexes contributes:
   * `'auto'` (default) refuses it (an index beside its archives would give
   * every row twice), else `'archives'`, `'indexes'` or `'all'`.
   */
  inputs?: 'auto' | 'archives' | 'indexes' | 'all'
  /** Aborts the job: nothing is published and `outDir` stays as it was. */
  signal?: AbortSignal
  /** Things worth knowing that are not about the input (leftovers of an interrupted run that were removed). */
  onNote?: (message: string) => void
  onProgress?: (p: { bytes: number; rows: number }) => void
  onProblem?: (p: { skipped: boolean; message: string }) => void
}

export interface ParquetFile {
  path: string
  rows: number
  bytes: number
}

export interface ParquetSummary {
  inputs: number
  rows: number
  skipped: number
  warnings: number
  bytesRead: number
  spilledRuns: number
  /** Rows written as they came, without the sort: the input was in order (as Common Crawl's and cdxj-indexer's indexes are). */
  streamedRows: number
  /** Parquet files and rows the dataset held before this run (`mode: 'append'`). */
  existingFiles: number
  existingRows: number
  /** The job was aborted: nothing was published. */
  cancelled: boolean
  /** The files written, under their final names. */
  files: ParquetFile[]
}

interface NativeParquet {
  writeParquet(
    inputs: string[],
    outDir: string,
    optionsJson: string,
    onEvent?: ((event: string) => void) | null,
    cancel?: unknown,
  ): Promise<string>
}

/**
 * Converts archives (indexed on the way), index files (CDXJ, CDX 11/9;
 * plain, .gz, .bz2), directories of them, or `'-'` (index lines on standard
 * input) into a dataset under `outDir`. Rows are sorted by url_surtkey in
 * each file; memory stays bounded (sorted runs spill to disk). An input
 * already in order is written without the sort.
 */
export async function writeParquet(inputs: string | string[], outDir: string, options: ParquetOptions = {}): Promise<ParquetSummary> {
  const list = Array.isArray(inputs) ? inputs : [inputs]
  const { signal, onProgress, onProblem, onNote, records, ...rest } = options
  const cancel = new native.CancelToken()
  const abort = () => cancel.cancel()
  signal?.addEventListener('abort', abort, { once: true })
  try {
    const text = await nativeJob((native as unknown as NativeParquet).writeParquet(list, outDir, JSON.stringify({ ...rest, records: Array.isArray(records) ? records.join(',') : records }), (ev: string) => {
      const e = JSON.parse(ev)
      if (e.event === 'progress') onProgress?.({ bytes: e.bytes, rows: e.rows })
      else if (e.event === 'note') onNote?.(e.message)
      else if (e.event === 'problem') (onProblem ?? ((p) => process.stderr.write(`warcdex: ${p.skipped ? 'skipped' : 'warning'}: ${p.message}\n`)))(e)
    }, cancel))
    // Events arrive asynchronously; let the last ones in.
    await new Promise((r) => setImmediate(r))
    return JSON.parse(text) as ParquetSummary
  } finally {
    signal?.removeEventListener('abort', abort)
  }
}

/** A SQL string literal. */
function literal(s: string): string {
  return `'${s.replace(/'/g, "''")}'`
}

/** The glob of a dataset's Parquet files (or the file itself). */
export function datasetGlob(dataset: string): string {
  return statSync(dataset).isDirectory() ? `${dataset.replace(/\/+$/, '')}/**/*.parquet` : dataset
}

/** SQL that defines `ccindex` and `"ccindex"."ccindex"` over a dataset. */
export function datasetViewsSql(dataset: string): string {
  // Partition values stay strings (crawl names like 2024 must not turn into numbers).
  const src = `read_parquet(${literal(datasetGlob(dataset))}, hive_partitioning = true, hive_types_autocast = false, union_by_name = true)`
  return [
    'CREATE SCHEMA IF NOT EXISTS ccindex',
    `CREATE OR REPLACE VIEW ccindex.ccindex AS SELECT * FROM ${src}`,
    'CREATE OR REPLACE VIEW main.ccindex AS SELECT * FROM ccindex.ccindex',
  ].join(';\n')
}

export interface QueryResult {
  columns: string[]
  types: string[]
  /** JSON-safe values: big integers and timestamps as strings. */
  rows: unknown[][]
}

async function connect(dataset: string) {
  const { DuckDBInstance } = await import('@duckdb/node-api')
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  await conn.run(datasetViewsSql(dataset))
  return conn
}

/** Runs `sql` over the dataset with DuckDB. */
export async function queryDataset(dataset: string, sql: string): Promise<QueryResult> {
  const conn = await connect(dataset)
  try {
    const reader = await conn.runAndReadAll(sql)
    return {
      columns: reader.columnNames(),
      types: reader.columnTypes().map((t) => t.toString()),
      rows: reader.getRowsJson() as unknown[][],
    }
  } finally {
    conn.closeSync()
  }
}

/** Runs `sql` over the dataset and writes its result to a Parquet file (whole or not at all; an existing one only with `force`). */
export async function queryToParquet(dataset: string, sql: string, output: string, options: { force?: boolean } = {}): Promise<void> {
  const conn = await connect(dataset)
  try {
    await writeVia(output, options.force ?? false, (temp) =>
      conn.run(`COPY (${sql.replace(/;\s*$/, '')}) TO ${literal(temp)} (FORMAT parquet, COMPRESSION zstd)`),
    )
  } finally {
    conn.closeSync()
  }
}
