// `warcdex summary`: cdx-summary's report (text, JSON, raw report) or an HTML page.

import { parse, UsageError } from '../args.js'
import { writeWhole } from '../output.js'
import { formatSummaryText, renderSummaryHtml, summarize, type SummaryResult } from '../summary.js'

export const SUMMARY_HELP = `Usage: warcdex summary [options] [INPUT...]

Summarizes a collection the way the Internet Archive's cdx-summary does, with
the same numbers, plus extras it lacks (labelled as such). INPUT is a CDX file
(11 or 9 fields), a CDXJ file, a WARC/ARC file (indexed on the fly), plain or
.gz/.bz2/.xz/.zst, a Parquet file or dataset in the cc-index-table schema
(what 'warcdex parquet' writes; its rows in file order), a directory of them,
or '-' (also the default when standard input is not a terminal) for CDX or
CDXJ lines on standard input. Several inputs are read in order as one stream.

Options:
      --json            the summary as cdx-summary's JSON (cdxsummary -j)
      --report          the raw, unsummarised report (cdxsummary -r; all hosts)
      --html FILE       write a self-contained HTML report to FILE
  -t, --top N           top hosts (default 10; 'all' for every host)
  -s, --samples N       random OK HTML samples (default 10; 0 for none)
      --seed N          seed for the samples, to make them reproducible
      --extras          add warcdex's extras to --json output (key "warcdex")
      --no-extras       leave the extras out of the text report
      --exact-limit N   count distinct URLs and digests exactly up to N values,
                        then estimate (HyperLogLog, ~0.8%); default 100000
  -o, --output FILE     write the text or JSON to FILE instead of standard output
      --force           replace an existing --output or --html FILE (files
                        appear only when complete)
  -h, --help            show this help

Exit codes: 0 done; 1 an input could not be read; 2 usage error.
`

function count(v: string | undefined, name: string, allowAll = false): number | null | undefined {
  if (v === undefined) return undefined
  if (allowAll && v === 'all') return null
  const n = Number(v)
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} needs a whole number${allowAll ? " or 'all'" : ''}, not ${v}`)
  return n
}

export async function summaryCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      json: { type: 'boolean' },
      report: { type: 'boolean' },
      html: { type: 'string' },
      top: { type: 'string', short: 't' },
      samples: { type: 'string', short: 's' },
      seed: { type: 'string' },
      extras: { type: 'boolean' },
      'no-extras': { type: 'boolean' },
      'exact-limit': { type: 'string' },
      output: { type: 'string', short: 'o' },
      force: { type: 'boolean' },
    },
    SUMMARY_HELP,
  )
  if (values.help) {
    process.stdout.write(SUMMARY_HELP)
    return 0
  }
  if (values.json && values.report) throw new UsageError('--json and --report exclude each other')
  const inputs = positionals.length > 0 ? positionals : process.stdin.isTTY ? [] : ['-']
  if (inputs.length === 0) throw new UsageError(`no INPUT given\n\n${SUMMARY_HELP}`)
  const top = count(values.top, 'top', true)
  const result: SummaryResult = await summarize(inputs, {
    top: values.report ? null : top,
    samples: count(values.samples, 'samples') ?? undefined,
    seed: count(values.seed, 'seed') ?? undefined,
    exactLimit: count(values['exact-limit'], 'exact-limit') ?? undefined,
    report: values.report ?? false,
  })
  if (values.html) {
    writeWhole(values.html, renderSummaryHtml(result, { generated: new Date() }), values.force ?? false)
    process.stderr.write(`warcdex: wrote ${values.html}\n`)
  }
  let text: string | undefined
  // cdx-summary's JSON text, in its key order (re-serialising parsed JSON would move months 10..12 first).
  if (values.report) text = result.reportJson + '\n'
  else if (values.json) {
    text = result.summaryJson
    if (values.extras) text = text.replace(/\n}$/, `,\n  "warcdex": ${JSON.stringify(result.extras, null, 2).replace(/\n/g, '\n  ')}\n}`)
    text += '\n'
  } else if (!values.html || values.output) text = formatSummaryText(result, { extras: !values['no-extras'] })
  if (text !== undefined) {
    if (values.output) writeWhole(values.output, text, values.force ?? false)
    else process.stdout.write(text)
  }
  const skipped = result.inputs.reduce((a, i) => a + i.skippedRecords, 0)
  if (skipped > 0) process.stderr.write(`warcdex: ${skipped} unreadable archive records were skipped\n`)
  return skipped > 0 ? 1 : 0
}
