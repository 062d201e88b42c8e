// The HTML report: one self-contained page (inline CSS and SVG, no script,
// nothing fetched), readable on a phone and in print.
import type { SummaryResult } from './summary.js'
import { naturalSize } from './summary-text.js'

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
const num = (n: number) => Math.trunc(n).toLocaleString('en-US')
const pct = (n: number, of: number) => (of > 0 ? `${((100 * n) / of).toFixed(1)}%` : '0%')
const MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'))
const isoDate = (ts: string) => (/^\d{8}/.test(ts) ? `${ts.slice(0, 4)}-${ts.slice(4, 6)}-${ts.slice(6, 8)}` : '—')

/** Status groups: colours that stay apart for colour-blind readers and in greyscale print. */
const STATUS_COLOURS: Record<string, string> = {
  '2XX': '#1b7837',
  '3XX': '#5aae61',
  '4XX': '#e08214',
  '5XX': '#b2182b',
  Other: '#8c8c8c',
}

/**
 * One row per MIME group: the label and total as text (so they stay
 * readable on a phone), the bar as a small SVG stretched to the row, its
 * segments the status groups, scaled to the largest group.
 */
function stackedBars(r: SummaryResult): string {
  const rows = Object.entries(r.summary.mimestatus).filter(([, v]) => Object.values(v).some((n) => n > 0))
  if (rows.length === 0) return '<p class="empty">No captures.</p>'
  const totals = rows.map(([, v]) => Object.values(v).reduce((a, b) => a + b, 0))
  const max = Math.max(...totals)
  const items = rows
    .map(([mime, v], i) => {
      let x = 0
      const segs = Object.entries(v)
        .filter(([, n]) => n > 0)
        .map(([code, n]) => {
          const w = (1000 * n) / max
          const rect = `<rect x="${x.toFixed(2)}" y="0" width="${w.toFixed(2)}" height="10" fill="${STATUS_COLOURS[code]}"><title>${esc(mime)} ${code}: ${num(n)} (${pct(n, r.summary.captures)} of captures)</title></rect>`
          x += w
          return rect
        })
        .join('')
      return `<li><span class="k">${esc(mime)}</span><svg viewBox="0 0 1000 10" preserveAspectRatio="none" role="img" aria-label="${esc(mime)}: ${Object.entries(v).map(([c, n]) => `${c} ${n}`).join(', ')}">${segs}</svg><span class="v">${num(totals[i]!)}</span></li>`
    })
    .join('')
  const legend = Object.entries(STATUS_COLOURS)
    .map(([code, c]) => `<span class="key"><i style="background:${c}"></i>${code}</span>`)
    .join('')
  return `<ol class="stack" aria-label="Captures by MIME group, stacked by status group">${items}</ol><p class="legend">${legend}</p>`
}

/** A table whose cells are shaded by their share of the largest cell. */
function heatMap(data: Record<string, Record<string, number>>, cols: string[], corner: string, captures: number): string {
  const rows = Object.entries(data).filter(([, v]) => Object.values(v).some((n) => n > 0))
  if (rows.length === 0) return '<p class="empty">No captures.</p>'
  const max = Math.max(1, ...rows.flatMap(([, v]) => Object.values(v)))
  const cell = (n: number) => {
    const a = n === 0 ? 0 : 0.12 + 0.88 * Math.sqrt(n / max)
    const dark = a > 0.55
    return `<td style="background:rgba(33,102,172,${a.toFixed(3)})${dark ? ';color:#fff' : ''}" title="${pct(n, captures)} of captures">${n ? num(n) : '·'}</td>`
  }
  const head = `<tr><th>${esc(corner)}</th>${cols.map((c) => `<th>${esc(c)}</th>`).join('')}<th>Total</th></tr>`
  const body = rows
    .map(([k, v]) => `<tr><th>${esc(k)}</th>${cols.map((c) => cell(v[c] ?? 0)).join('')}<td class="t">${num(Object.values(v).reduce((a, b) => a + b, 0))}</td></tr>`)
    .join('')
  return `<div class="scroll"><table class="heat"><thead>${head}</thead><tbody>${body}</tbody></table></div>`
}

function barList(items: [string, number][], of: number, caption: string): string {
  if (items.length === 0) return '<p class="empty">None.</p>'
  const max = Math.max(...items.map(([, n]) => n))
  return `<ol class="bars" aria-label="${esc(caption)}">${items
    .map(
      ([k, n]) =>
        `<li><span class="k" title="${esc(k)}">${esc(k)}</span><span class="b"><i style="width:${((100 * n) / max).toFixed(2)}%"></i></span><span class="v">${num(n)} <small>${pct(n, of)}</small></span></li>`,
    )
    .join('')}</ol>`
}

const CSS = `
:root{--fg:#1d2433;--muted:#5b6577;--line:#d8dde6;--bg:#fff;--card:#f5f7fa;--accent:#2166ac}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:980px;margin:0 auto;padding:16px}
h1{font-size:1.5rem;margin:.2em 0}
h2{font-size:1.15rem;margin:1.6em 0 .5em;padding-bottom:.2em;border-bottom:2px solid var(--line)}
.sub{color:var(--muted);margin:0 0 1em;word-break:break-all}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:10px;margin:0;padding:0}
.cards div{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.cards dt{color:var(--muted);font-size:.8rem}
.cards dd{margin:0;font-size:1.25rem;font-weight:600;font-variant-numeric:tabular-nums}
.stack{list-style:none;padding:0;margin:0}
.stack li{display:grid;grid-template-columns:6.5em 1fr 5.5em;gap:8px;align-items:center;padding:3px 0}
.stack svg{width:100%;height:18px;display:block}
.stack .v{text-align:right;font-variant-numeric:tabular-nums;color:var(--muted)}
.legend{margin:.3em 0;font-size:.85rem}
.key{margin-right:1em;white-space:nowrap} .key i{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:-.1em;border-radius:2px}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:.85rem}
.heat th,.heat td{padding:4px 6px;text-align:right;border:1px solid #fff;white-space:nowrap}
.heat thead th{color:var(--muted);font-weight:600}
.heat tbody th{text-align:left}
.heat .t{font-weight:600;background:var(--card)}
.bars{list-style:none;padding:0;margin:0}
.bars li{display:grid;grid-template-columns:minmax(0,16em) 1fr auto;gap:8px;align-items:center;padding:2px 0}
.bars .k{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.bars .b{background:var(--card);height:14px;border-radius:3px;overflow:hidden}
.bars .b i{display:block;height:100%;background:var(--accent)}
.bars .v{font-variant-numeric:tabular-nums;text-align:right;white-space:nowrap}
.bars small{color:var(--muted)}
.samples{padding-left:1.2em;word-break:break-all}
.samples a{color:var(--accent)}
.extra{border-left:4px solid #e08214;padding-left:12px}
.note{color:var(--muted);font-size:.85rem}
.empty{color:var(--muted)}
.two{display:grid;grid-template-columns:1fr 1fr;gap:24px}
@media (max-width:640px){.two{grid-template-columns:1fr}.bars li{grid-template-columns:minmax(0,9em) 1fr auto}body{font-size:14px}}
@media print{main{max-width:none;padding:0}section{break-inside:avoid}h2{break-after:avoid}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}.samples a{color:var(--fg);text-decoration:none}}
`

export interface HtmlOptions {
  title?: string
  replayUrl?: string
  generated?: Date
}

/** The whole report as one HTML page. */
export function renderSummaryHtml(r: SummaryResult, options: HtmlOptions = {}): string {
  const s = r.summary
  const e = r.extras
  const replay = options.replayUrl ?? 'https://web.archive.org/web'
  const title = options.title ?? 'Web archive collection summary'
  const approx = (exact: boolean) => (exact ? '' : ' ≈')
  const card = (k: string, v: string) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`
  const top = Object.entries(s.tophosts)
  const samples = [...s.samples].sort((a, b) => a[1].length - b[1].length)
  const files = [...e.recordsPerFile].sort((a, b) => b[1] - a[1]).slice(0, 20)
  const inputs = r.inputs.map((i) => `${i.name} (${i.kind}${i.compression !== 'none' ? `, ${i.compression}` : ''})`).join(', ')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>${CSS}</style></head>
<body><main>
<h1>${esc(title)}</h1>
<p class="sub">${esc(inputs)}${options.generated ? ` · generated ${esc(options.generated.toISOString().slice(0, 16).replace('T', ' '))} UTC` : ''}</p>
<section><h2>Overview</h2>
<dl class="cards">${card('Captures', num(s.captures))}${card('Consecutive unique URLs', num(s.urls))}${card('Consecutive unique hosts', num(s.hosts))}${card('WARC records size', naturalSize(s.bytes))}${card('First capture', isoDate(s.first))}${card('Last capture', isoDate(s.last))}</dl>
<p class="note">As cdx-summary counts them: "consecutive" counts change from one line to the next, so they are exact only for sorted input.</p>
</section>
<section><h2>MIME type and status</h2>${stackedBars(r)}</section>
<section><h2>Year and month</h2>${heatMap(s.yearmonth, MONTHS, 'Year', s.captures)}</section>
<section><h2>Path and query segments</h2>${heatMap(s.pathquery, ['Q0', 'Q1', 'Q2', 'Q3', 'Q4', 'Other'], 'Path', s.captures)}
<p class="note">P<i>n</i>: URLs with <i>n</i> path segments; Q<i>n</i>: with <i>n</i> query parameters.</p></section>
<section><h2>Top ${top.length} of ${num(s.hosts)} hosts</h2>${barList(top, s.captures, 'Top hosts by captures')}</section>
<section class="extra"><h2>Beyond cdx-summary</h2>
<p class="note">Computed by warcdex, not by cdx-summary. Exact counts are over all lines in any order; ≈ marks a HyperLogLog estimate (about 0.8% error), used above ${num(e.exactLimit)} distinct values.</p>
<dl class="cards">${card('Unique URLs' + approx(e.uniqueUrls.exact), num(e.uniqueUrls.count))}${card('Unique hosts', num(e.uniqueHosts.count))}${card('Registered domains', num(e.registeredDomains.count))}${card('Revisits', `${num(e.revisits)} (${pct(e.revisits, s.captures)})`)}${card('Duplicates by digest' + approx(e.duplicatesByDigest.exact), `${num(e.duplicatesByDigest.count)} (${pct(e.duplicatesByDigest.count, e.duplicatesByDigest.of)})`)}${card('WARC files', num(e.files))}</dl>
<div class="two"><div><h3>Status codes</h3>${barList(e.statusTop, s.captures, 'Status codes')}</div><div><h3>MIME types</h3>${barList(e.mimeTop, s.captures, 'MIME types')}</div></div>
<div class="two"><div><h3>Registered domains</h3>${barList(e.registeredDomains.top, s.captures, 'Registered domains')}</div><div><h3>Captures per WARC file</h3>${barList(files, s.captures, 'Captures per WARC file')}</div></div>
</section>
<section><h2>Random sample of ${samples.length} OK HTML captures</h2>
${samples.length ? `<ol class="samples">${samples.map(([ts, url]) => `<li><a href="${esc(`${replay}/${ts}/${url}`)}">${esc(url)}</a> <small>${esc(isoDate(ts))}</small></li>`).join('')}</ol>` : '<p class="empty">No OK HTML captures.</p>'}
</section>
</main></body></html>
`
}
