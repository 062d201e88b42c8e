// The text report, with cdx-summary's sections, rows and labels (its rich
// tables drawn with plain horizontal rules).
import type { CdxSummary, SummaryResult } from './summary.js'

const intcomma = (n: number): string => Math.trunc(n).toLocaleString('en-US')

/** humanize's `naturalsize` (decimal units, one decimal), as cdx-summary prints sizes. */
export function naturalSize(bytes: number): string {
  const suffixes = ['kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB', 'RB', 'QB']
  const abs = Math.abs(bytes)
  if (abs === 1) return '1 Byte'
  if (abs < 1000) return `${Math.trunc(bytes)} Bytes`
  let exp = Math.trunc(Math.min(Math.log(abs) / Math.log(1000), suffixes.length))
  if (exp < suffixes.length && Number((abs / 1000 ** exp).toFixed(1)) >= 1000) exp++
  return `${(bytes / 1000 ** exp).toFixed(1)} ${suffixes[exp - 1]}`
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** humanize's `naturaldate` of a 14-digit timestamp ("UNKNOWN" when it is not a date). */
export function naturalDate(ts: string, today: Date = new Date()): string {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(ts)
  if (!m) return 'UNKNOWN'
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = Date.UTC(y, mo - 1, d)
  const check = new Date(date)
  if (check.getUTCMonth() !== mo - 1 || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59) return 'UNKNOWN'
  const t = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate())
  const days = Math.round((date - t) / 86_400_000)
  if (days === 0) return 'today'
  if (days === 1) return 'tomorrow'
  if (days === -1) return 'yesterday'
  const md = `${MONTH_NAMES[mo - 1]} ${String(d).padStart(2, '0')}`
  return Math.abs(days) >= (5 * 365) / 12 ? `${md} ${String(y).padStart(4, '0')}` : md
}

interface Table {
  title: string
  header?: string[]
  rows: string[][]
  footer?: string[]
}

/** A table in the spirit of rich's `box.HORIZONTALS`: rules above and below, first column left-aligned. */
function drawTable(t: Table): string {
  const all = [t.header, ...t.rows, t.footer].filter((r): r is string[] => r !== undefined)
  const widths = all[0]!.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)))
  const line = (r: string[]) => ' ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' ') + ' '
  const width = widths.reduce((a, b) => a + b, 0) + widths.length + 1
  const rule = ' ' + '─'.repeat(width - 2) + ' '
  const pad = Math.max(0, Math.floor((width - t.title.length) / 2))
  const out = [' '.repeat(pad) + t.title, rule]
  if (t.header) out.push(line(t.header), rule)
  for (const r of t.rows) out.push(line(r))
  if (t.footer) out.push(rule, line(t.footer))
  out.push(rule)
  return out.join('\n') + '\n'
}

function grid(title: string, corner: string, data: Record<string, Record<string, number>>, cols: string[], captures: number): string {
  const rows = Object.entries(data).filter(([, v]) => Object.values(v).some((n) => n !== 0))
  const colSum = (c: string) => Object.values(data).reduce((a, r) => a + (r[c] ?? 0), 0)
  return drawTable({
    title,
    header: [corner, ...cols, 'TOTAL'],
    rows: rows.map(([k, v]) => [k, ...cols.map((c) => intcomma(v[c] ?? 0)), intcomma(Object.values(v).reduce((a, b) => a + b, 0))]),
    // cdx-summary shows the TOTAL row only when more than one row is non-zero.
    footer: rows.length > 1 ? ['TOTAL', ...cols.map((c) => intcomma(colSum(c))), intcomma(captures)] : undefined,
  })
}

export interface TextOptions {
  /** Replay prefix for the samples (cdx-summary's `$REPLAYURL`). */
  replayUrl?: string
  today?: Date
  /** Add warcdex's extras after cdx-summary's sections. */
  extras?: boolean
}

/** The report cdx-summary prints, section by section, then (optionally) warcdex's extras. */
export function formatSummaryText(result: SummaryResult, options: TextOptions = {}): string {
  const s: CdxSummary = result.summary
  const replay = options.replayUrl ?? process.env.REPLAYURL ?? 'https://web.archive.org/web'
  const parts: string[] = ['']
  parts.push(
    drawTable({
      title: 'CDX Overview',
      rows: [
        ['Total Captures in CDX', intcomma(s.captures)],
        ['Consecutive Unique URLs', intcomma(s.urls)],
        ['Consecutive Unique Hosts', intcomma(s.hosts)],
        ['Total WARC Records Size', naturalSize(s.bytes)],
        ['First Memento Date', naturalDate(s.first, options.today)],
        ['Last Memento Date', naturalDate(s.last, options.today)],
      ],
    }),
  )
  parts.push(grid('MIME Type and Status Code Distribution', 'MIME', s.mimestatus, ['2XX', '3XX', '4XX', '5XX', 'Other'], s.captures))
  parts.push(grid('Path and Query Segments', 'Path', s.pathquery, ['Q0', 'Q1', 'Q2', 'Q3', 'Q4', 'Other'], s.captures))
  const months = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'))
  parts.push(grid('Year and Month Distribution', 'Year', s.yearmonth, months, s.captures))
  const top = Object.entries(s.tophosts)
  const others = s.hosts - top.length
  const topSum = top.reduce((a, [, n]) => a + n, 0)
  parts.push(
    drawTable({
      title: `Top ${top.length} Out of ${intcomma(s.hosts)} Hosts`,
      header: ['Host', 'Captures'],
      rows: top.map(([h, n]) => [h, intcomma(n)]),
      footer: others > 0 ? [`OTHERS (${intcomma(others)} Hosts)`, intcomma(s.captures - topSum)] : undefined,
    }),
  )
  if (s.samples.length > 0) {
    const title = `Random Sample of ${intcomma(s.samples.length)} OK HTML Mementos`
    parts.push(
      ' '.repeat(Math.max(0, Math.floor((50 - title.length) / 2))) + title + '\n' + ` ${'─'.repeat(48)}\n` +
        s.samples.map(([ts, url]) => ` * ${replay}/${ts}/${url}\n`).join(''),
    )
  }
  if (options.extras) parts.push(formatExtras(result))
  return parts.join('\n') + '\n'
}

const pct = (n: number, of: number) => (of > 0 ? `${((100 * n) / of).toFixed(1)}%` : '-')

function formatExtras(r: SummaryResult): string {
  const e = r.extras
  const s = r.summary
  const approx = (exact: boolean) => (exact ? '' : ' (approx., HyperLogLog)')
  const out = [
    drawTable({
      title: 'Beyond cdx-summary (warcdex)',
      rows: [
        ['Unique URLs (exact, any order)' + approx(e.uniqueUrls.exact), intcomma(e.uniqueUrls.count)],
        ['Unique Hosts (exact, any order)', intcomma(e.uniqueHosts.count)],
        ['Registered Domains', intcomma(e.registeredDomains.count)],
        ['Revisit Records', `${intcomma(e.revisits)} (${pct(e.revisits, s.captures)})`],
        [
          'Duplicates by Digest' + approx(e.duplicatesByDigest.exact),
          `${intcomma(e.duplicatesByDigest.count)} (${pct(e.duplicatesByDigest.count, e.duplicatesByDigest.of)})`,
        ],
        ['WARC Files', intcomma(e.files)],
        ['Lines Skipped (not CDX captures)', intcomma(e.skippedLines)],
      ],
    }),
    drawTable({ title: 'Top Status Codes', header: ['Status', 'Captures'], rows: e.statusTop.map(([k, n]) => [k, intcomma(n)]) }),
    drawTable({ title: 'Top MIME Types', header: ['MIME', 'Captures'], rows: e.mimeTop.map(([k, n]) => [k, intcomma(n)]) }),
    drawTable({
      title: 'Top Registered Domains',
      header: ['Domain', 'Captures'],
      rows: e.registeredDomains.top.map(([k, n]) => [k, intcomma(n)]),
    }),
  ]
  if (e.recordsPerFile.length > 0) {
    const files = [...e.recordsPerFile].sort((a, b) => b[1] - a[1]).slice(0, Math.max(10, Object.keys(s.tophosts).length))
    out.push(drawTable({ title: 'Captures per WARC File', header: ['File', 'Captures'], rows: files.map(([k, n]) => [k, intcomma(n)]) }))
  }
  return out.join('\n')
}
