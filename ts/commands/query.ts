// `warcdex query`: SQL over a cc-index-table dataset with embedded DuckDB.

import { OutputExistsError, writeWhole } from '../output.js'
import { parse } from '../args.js'
import { queryDataset, queryToParquet, type QueryResult } from '../parquet.js'

export const QUERY_HELP = `Usage: warcdex query [options] DATASET "SQL"

Runs SQL over a Parquet dataset (as written by 'warcdex parquet', or Common
Crawl's own) with embedded DuckDB. The dataset is the view ccindex, also
reachable as "ccindex"."ccindex", so Athena queries run unchanged (functions
only Athena has need their DuckDB names). Hive partition columns (crawl,
subset) are columns of the view.

Options:
  -f, --format FORMAT   table (default: aligned columns), csv, json (one
                        object per line) or parquet (needs --output)
  -o, --output FILE     write the result to FILE instead of standard output
                        (it appears only when complete)
      --force           replace an existing --output FILE
  -h, --help            show this help

Example:
  warcdex query ds/ "SELECT subset, COUNT(*) FROM ccindex GROUP BY subset"
`

function text(v: unknown): string {
  if (v === null || v === undefined) return ''
  return typeof v === 'object' ? JSON.stringify(v) : String(v)
}

function csvField(v: unknown): string {
  if (v === null || v === undefined) return ''
  const s = text(v)
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export function formatResult(r: QueryResult, format: string): string {
  if (format === 'csv') {
    return [r.columns.map(csvField).join(','), ...r.rows.map((row) => row.map(csvField).join(','))].join('\n') + '\n'
  }
  if (format === 'json') {
    return r.rows.map((row) => JSON.stringify(Object.fromEntries(r.columns.map((c, i) => [c, row[i] ?? null])))).join('\n') + (r.rows.length ? '\n' : '')
  }
  // Aligned table; numbers right-aligned, NULL shown as such.
  const numeric = r.types.map((t) => /INT|DECIMAL|DOUBLE|FLOAT|REAL/.test(t))
  const cells = r.rows.map((row) => row.map((v) => (v === null || v === undefined ? 'NULL' : text(v))))
  const widths = r.columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)))
  const line = (vals: string[], header = false) =>
    vals.map((v, i) => (numeric[i] && !header ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd()
  const out = [line(r.columns, true), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map((c) => line(c))]
  return out.join('\n') + `\n(${r.rows.length} row${r.rows.length === 1 ? '' : 's'})\n`
}

export async function queryCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      format: { type: 'string', short: 'f' },
      output: { type: 'string', short: 'o' },
      force: { type: 'boolean' },
    } as const,
    QUERY_HELP,
  )
  if (values.help) {
    process.stdout.write(QUERY_HELP)
    return 0
  }
  const format = values.format ?? 'table'
  const usage = (msg: string) => {
    process.stderr.write(`warcdex: ${msg}\n\n${QUERY_HELP}`)
    return 2
  }
  if (!['table', 'csv', 'json', 'parquet'].includes(format)) return usage(`unknown --format ${format}`)
  if (positionals.length !== 2) return usage('give the DATASET and one SQL string')
  if (format === 'parquet' && !values.output) return usage('--format parquet needs --output FILE')
  const [dataset, sql] = positionals as [string, string]
  try {
    if (format === 'parquet') {
      await queryToParquet(dataset, sql, values.output!, { force: values.force ?? false })
      return 0
    }
    const out = formatResult(await queryDataset(dataset, sql), format)
    if (values.output) writeWhole(values.output, out, values.force ?? false)
    else process.stdout.write(out)
    return 0
  } catch (e) {
    process.stderr.write(`warcdex: ${(e as Error).message}\n`)
    if (e instanceof OutputExistsError) return 2
    return /No files found|does not exist|no such file/i.test((e as Error).message) ? 1 : 3
  }
}
