// `warcdex parquet`: a cc-index-table Parquet dataset from archives or indexes.
import { statSync } from 'node:fs'

import { parse, UsageError } from '../args.js'
import { EXIT_BAD_INPUT, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE } from '../exit.js'
import { Interrupt } from '../interrupt.js'
import { OutputExistsError } from '../output.js'
import { writeParquet } from '../parquet.js'
import { human, ProgressBar } from '../progress.js'

export const PARQUET_HELP = `Usage: warcdex parquet [options] INPUT... OUTDIR

Writes a Hive-partitioned Parquet dataset in Common Crawl's cc-index-table
schema (OUTDIR/crawl=NAME/subset=SUBSET/part-*.parquet), queryable with
'warcdex query', DuckDB, Spark, Athena or Trino. INPUT is a WARC/ARC file
(indexed on the way), an index (CDXJ, including Common Crawl's, 11-field or
9-field CDX; plain, .gz or .bz2; unsorted is fine), a directory searched
recursively for both, or '-' for index lines on standard input.

Options:
      --crawl NAME          crawl name for every row (default: parsed from
                            Common Crawl paths, else 'unknown')
      --partition-by COLS   partition columns, from crawl and subset
                            (default crawl,subset; '' for none; EOT: crawl)
  -c, --compression CODEC   zstd (default), gzip, snappy or none
      --max-file-rows N     rows per file at most (default 10000000)
      --row-group-rows N    rows per row group (default 100000)
      --page-rows N         rows per data page (default 5000)
      --bloom-filters       bloom filters on url_host_registered_domain and
                            url_surtkey
      --sort-memory MB      memory for rows before sorted runs spill to disk
                            (default 512)
      --tmp-dir DIR         where spilled runs go (default: the system's)
      --records WHICH       which records of WARC/ARC inputs become rows:
                            captures (default: response, revisit and
                            resource records of http(s)/ftp URLs, as Common
                            Crawl's tables hold; no dns: lookups, crawler
                            metadata or warcinfo), index (cdxj-indexer's
                            selection), all, or a list of WARC-Types
      --inputs KIND         what a directory holding both archives and
                            indexes gives: refused by default (an index
                            beside its archives would give every row twice);
                            archives, indexes or all
      --mode MODE           when OUTDIR already holds a dataset: error (the
                            default: refuse), append (add the new files) or
                            overwrite (replace the dataset)
  -q, --quiet               no progress bar, warnings or summary
  -h, --help                show this help

Subsets follow Common Crawl: robotstxt (robots.txt captures), warc
(successful captures and revisits), crawldiagnostics (redirects, 404s and
other non-successful captures); Common Crawl paths give their own.

Rows are sorted by url_surtkey in each file. An index already in that order
(Common Crawl's cdx shards, cdxj-indexer's output) is written as it comes,
without the sort.

The files are staged out of readers' sight and published together when
every input is read, with a _SUCCESS marker: an interrupted or failed run
leaves OUTDIR as it was, and the next run removes what it left behind.

Exit codes: 0 every line/record was converted; 1 some were skipped (each
reported on standard error); 2 usage error, or OUTDIR holds a dataset and no
--mode was given; 3 the job failed (e.g. disk full: nothing is published);
130/143 interrupted by SIGINT/SIGTERM (nothing is published).
`

export async function parquetCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      crawl: { type: 'string' },
      'partition-by': { type: 'string' },
      compression: { type: 'string', short: 'c' },
      'max-file-rows': { type: 'string' },
      'row-group-rows': { type: 'string' },
      'page-rows': { type: 'string' },
      'bloom-filters': { type: 'boolean' },
      'sort-memory': { type: 'string' },
      'tmp-dir': { type: 'string' },
      mode: { type: 'string' },
      records: { type: 'string' },
      inputs: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
    } as const,
    PARQUET_HELP,
  )
  if (values.help) {
    process.stdout.write(PARQUET_HELP)
    return 0
  }
  const usage = (msg: string) => {
    process.stderr.write(`warcdex: ${msg}\n\n${PARQUET_HELP}`)
    return 2
  }
  if (positionals.length < 2) return usage('give at least one INPUT and the OUTDIR')
  const count = (v: string | undefined, name: string): number | undefined => {
    if (v === undefined) return undefined
    const n = Number(v)
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} needs a positive whole number, not ${v}`)
    return n
  }
  let numbers
  try {
    numbers = {
      maxFileRows: count(values['max-file-rows'], 'max-file-rows'),
      rowGroupRows: count(values['row-group-rows'], 'row-group-rows'),
      pageRows: count(values['page-rows'], 'page-rows'),
      sortMb: count(values['sort-memory'], 'sort-memory'),
    }
  } catch (e) {
    return usage((e as Error).message)
  }
  const compression = values.compression ?? 'zstd'
  if (!['zstd', 'gzip', 'snappy', 'none'].includes(compression)) return usage(`unknown --compression ${compression}`)
  const partitionBy = values['partition-by'] === undefined ? undefined : values['partition-by'].split(',').map((s) => s.trim()).filter(Boolean)
  if (partitionBy?.some((c) => c !== 'crawl' && c !== 'subset')) return usage(`--partition-by takes crawl and subset, not ${values['partition-by']}`)
  const mode = values.mode ?? 'error'
  const kinds = values.inputs ?? 'auto'
  if (!['auto', 'archives', 'indexes', 'all'].includes(kinds)) return usage(`--inputs takes archives, indexes or all, not ${kinds}`)
  if (mode !== 'error' && mode !== 'append' && mode !== 'overwrite') return usage(`--mode takes error, append or overwrite, not ${mode}`)

  const inputs = positionals.slice(0, -1)
  const outDir = positionals[positionals.length - 1]!
  const quiet = values.quiet ?? false
  let total = 0
  for (const i of inputs) {
    try {
      if (i !== '-') total += statSync(i).isFile() ? statSync(i).size : 0
    } catch {
      // Reported by the job when its turn comes; the other inputs are converted.
    }
  }
  const bar = !quiet && process.stderr.isTTY ? new ProgressBar(total) : undefined
  const interrupt = new Interrupt()
  const started = Date.now()
  try {
    const s = await writeParquet(inputs, outDir, {
      crawl: values.crawl,
      partitionBy,
      compression: compression as 'zstd',
      maxFileRows: numbers.maxFileRows,
      rowGroupRows: numbers.rowGroupRows,
      pageRows: numbers.pageRows,
      bloomFilters: values['bloom-filters'] ?? false,
      sortBudgetBytes: numbers.sortMb === undefined ? undefined : numbers.sortMb * 1024 * 1024,
      tmpDir: values['tmp-dir'],
      mode,
      records: values.records === undefined || ['captures', 'index', 'all'].includes(values.records) ? (values.records as 'all' | undefined) : values.records.split(','),
      inputs: kinds as 'auto',
      signal: interrupt.signal,
      onNote: (message) => {
        if (!quiet) process.stderr.write(`warcdex: note: ${message}\n`)
      },
      onProgress: ({ bytes, rows }) => bar?.update(bytes, rows),
      onProblem: (p) => {
        if (quiet) return
        bar?.clear()
        process.stderr.write(`warcdex: ${p.skipped ? 'skipped' : 'warning'}: ${p.message}\n`)
      },
    })
    bar?.clear()
    if (s.cancelled) {
      if (!quiet) process.stderr.write(`warcdex: interrupted; ${outDir} is left as it was\n`)
      return interrupt.exitCode ?? EXIT_INTERRUPTED
    }
    if (!quiet) {
      const secs = (Date.now() - started) / 1000
      const bytes = s.files.reduce((a, f) => a + f.bytes, 0)
      const rate = Math.round(s.rows / Math.max(secs, 0.001))
      process.stderr.write(
        `warcdex: ${s.rows} rows from ${s.inputs} inputs into ${s.files.length} files (${human(bytes)}) in ${outDir}; ` +
          `${s.skipped} skipped, ${s.warnings} warnings; ${secs.toFixed(1)}s, ${rate.toLocaleString('en-US')} rows/s` +
          (s.streamedRows > 0 ? `; ${s.streamedRows === s.rows ? 'input in order, not sorted again' : `${s.streamedRows} rows in input order, the rest sorted`}` : '') +
          (mode === 'append' ? `; appended to ${s.existingRows} rows in ${s.existingFiles} files already there` : '') +
          '\n',
      )
    }
    return s.skipped > 0 ? EXIT_BAD_INPUT : EXIT_OK
  } catch (e) {
    bar?.clear()
    // A job stopped by a signal may end in an error instead of a summary.
    if (interrupt.exitCode !== undefined) return interrupt.exitCode
    const msg = (e as Error).message
    process.stderr.write(`warcdex: ${msg}\n`)
    if (e instanceof OutputExistsError || e instanceof UsageError) return EXIT_USAGE
    return /No such file|not found|ENOENT/i.test(msg) ? EXIT_BAD_INPUT : EXIT_FAILED
  } finally {
    interrupt.dispose()
  }
}
