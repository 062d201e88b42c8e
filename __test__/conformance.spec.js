// Conformance with the reference indexers, over the real files and reference
// outputs in ../shared/corpus (reference-cases.json). Each case runs warcdex
// in the matching mode and compares. A case that differs must be listed in
// DOCUMENTED below with the reason; anything else fails the test.
import test from 'ava'
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { readRecords, writeIndex } from '../dist/index.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const CORPUS = join(ROOT, '..', 'shared', 'corpus')

/** Differences kept on purpose (or features not offered), by case id. */
const DOCUMENTED = {
  19: 'pywb --verify-http rejects a non-HTTP status line; warcdex, like cdxj-indexer, reads any status line',
  37: 'cdxj-indexer -d (SHA-256 record digests) is not offered by warcdex',
  38: 'cdxj-indexer -d (SHA-256 record digests) is not offered by warcdex',
  43: 'cdxj-indexer --fields (custom extra fields) is not offered; warcdex writes every field in --format ndjson',
  51: 'cdxj-indexer --compress (ZipNum blocks) is not offered by warcdex',
  52: 'cdxj-indexer --fields (custom extra fields) is not offered; warcdex writes every field in --format ndjson',
  53: 'cdxj-indexer --replace-fields is not offered; warcdex writes every field in --format ndjson',
  54: 'cdxj-indexer --replace-fields is not offered; warcdex writes every field in --format ndjson',
  75: 'warcio.js custom field list (referrer) is not offered; warcdex writes every field in --format ndjson',
  80: 'warcio.js custom request fields (req.http:cookie) are not offered',
  81: 'warcio.js reads POST bodies raw (a chunked body becomes base64 of the chunked bytes) where cdxj-indexer, which warcdex follows, de-chunks first',
  180:
    'fixture made by an older pywb, before its CDXJ had "method" and "requestBody": pywb 2.10.0 (cdx-indexer -j -p) ' +
    'writes exactly what warcdex --style pywb writes, these two fields included',
  189: 'pywb non-SURT keys (-u) are not offered',
  194: 'the reference is a pywb ZipNum cluster (gzip blocks), a format warcdex does not write',
}

/** Cases that are not the output of an indexer (per reference-cases.json). */
const NOT_INDEXER_OUTPUT = new Set([191, 192, 193])

const corpusPresent = existsSync(join(CORPUS, 'reference-cases.json'))

function parseCdxj(text) {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith(' CDX'))
    .map((l) => {
      const m = /^(\S+) (\S+) (\{.*\})$/.exec(l)
      if (!m) return { raw: l }
      const obj = JSON.parse(m[3])
      for (const k of Object.keys(obj)) obj[k] = String(obj[k])
      if (obj.digest) obj.digest = obj.digest.replace(/^sha1:/, '')
      return { urlkey: m[1], timestamp: m[2], obj }
    })
}

const sortedKeys = (o) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]))
const canon = (lines) => JSON.stringify(lines.map((l) => (l.obj ? { ...l, obj: sortedKeys(l.obj) } : l)))

/** How to run warcdex for a case, and how to compare; null when not applicable. */
function plan(c) {
  const o = c.options ?? {}
  const tool = c.tool
  if (tool.startsWith('cdxj-indexer (webrecorder')) {
    const format = o.cdx11 ? 'cdx11' : o.cdx09 ? 'cdx9' : 'cdxj'
    const records = o.records === 'all' ? 'all' : o.records ? o.records.split(',') : 'default'
    return { run: { format, records, postAppend: !!o.post_append, sort: !!o.sort, dirRoot: o.dir_root }, compare: 'exact' }
  }
  if (tool.startsWith('pywb cdx-indexer')) {
    // pywb's minimal index is always CDXJ.
    const format = o.cdxj || o.minimal ? 'cdxj' : o.cdx09 ? 'cdx9' : 'cdx11'
    const run = {
      style: 'pywb',
      format,
      records: o.include_all ? 'all' : 'default',
      postAppend: !!o.append_post,
      minimal: !!o.minimal,
      sort: !!o.sort,
    }
    if (c.compare === 'error') return { run, compare: 'error' }
    if (c.compare.startsWith('cdxj-json-dict')) return { run, compare: 'dicts' }
    if (c.compare === 'partial') return { run, compare: 'partial' }
    if (c.compare.startsWith('fixture')) {
      const cli = c.cli_equivalent ?? ''
      run.sort = /-s\b/.test(cli)
      run.postAppend = /-p\b/.test(cli)
      run.minimal = /-mj\b/.test(cli)
      if (/-j\b|-mj\b|cdxj/.test(cli) || c.expected.endsWith('.cdxj')) {
        run.format = 'cdxj'
        return { run, compare: 'dicts' }
      }
      return { run, compare: /first 2/.test(cli) ? 'prefix' : 'exact' }
    }
    return { run, compare: 'exact' }
  }
  if (tool.startsWith('warcio.js (warcio CLI')) {
    const cli = c.cli_equivalent ?? ''
    if (cli.startsWith('warcio index')) return { run: {}, compare: 'records' }
    if (/--format cdx\b/.test(cli)) return { run: { format: 'cdx11' }, compare: 'cdx-no-header' }
    if (/--format json/.test(cli)) return { run: { format: 'cdxj', records: 'all' }, compare: 'warcio-json' }
    return { run: { format: 'cdxj', postAppend: true }, compare: 'dicts' }
  }
  return null
}

async function runWarcdex(c, run, dir) {
  // The inputs keep their names (pywb's inline inputs were indexed as 'test.warc.gz').
  const files = c.inputs.map((rel) => {
    const src = join(CORPUS, rel.replace(/ \(whole directory\)$/, ''))
    if (/inline-inputs/.test(rel)) {
      const named = join(dir, 'test.warc.gz')
      copyFileSync(src, named)
      return named
    }
    return src
  })
  const output = join(dir, 'out.txt')
  const opts = { ...run, output, onProblem: () => {} }
  if (run.dirRoot) opts.dirRoot = join(CORPUS, 'webrecorder+cdxj-indexer')
  await writeIndex(files, opts)
  return readFileSync(output, 'utf8')
}

async function recordsAsWarcioIndex(file, fields) {
  const out = []
  for await (const r of readRecords(file, { onProblem: () => {} })) {
    const row = { offset: r.offset, length: r.length, 'warc-type': r.type }
    if (r.targetUri !== undefined) row['warc-target-uri'] = r.targetUri
    if (r.http?.headers.get('content-type') !== undefined) row['http:content-type'] = r.http.headers.get('content-type')
    if (r.http?.status !== undefined) row['http:status'] = String(r.http.status)
    out.push(row)
  }
  return out.map((row) => Object.fromEntries(fields.filter((f) => f in row).map((f) => [f, String(row[f])])))
}

async function evaluate(c, dir) {
  const p = plan(c)
  if (!p) return { status: 'not-applicable' }
  if (c.compare === 'error') {
    // The reference refuses the input or options: warcdex must refuse too.
    if (p.compare !== 'error') return { status: 'differs', detail: `reference raises: ${c.expected_error}` }
    try {
      await runWarcdex(c, p.run, dir)
    } catch (e) {
      return { status: 'equivalent', detail: `both refuse: ${e.message}` }
    }
    return { status: 'differs', detail: `reference raises (${c.expected_error}); warcdex does not` }
  }
  if (NOT_INDEXER_OUTPUT.has(c.id)) return { status: 'not-applicable' }
  const expectedPath = c.expected ? join(CORPUS, c.expected) : undefined
  if (p.compare === 'records') {
    const expected = readFileSync(expectedPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    const fields = [...new Set(expected.flatMap((e) => Object.keys(e)))]
    const normal = (rows) => JSON.stringify(rows.map((r) => Object.fromEntries(fields.filter((f) => f in r).map((f) => [f, String(r[f])]))))
    const got = await recordsAsWarcioIndex(join(CORPUS, c.inputs[0]), fields)
    return normal(got) === normal(expected) ? { status: 'equivalent' } : { status: 'differs', detail: normal(got).slice(0, 400) }
  }
  let got
  try {
    got = await runWarcdex(c, p.run, dir)
  } catch (e) {
    return { status: 'differs', detail: `warcdex failed: ${e.message}` }
  }
  if (p.compare === 'partial') {
    const lines = got.split('\n').filter(Boolean)
    const facts = c.expected_facts ?? {}
    const bad = []
    if (facts.line_2 !== undefined && lines[1] !== facts.line_2) bad.push(`line 2: ${lines[1]}`)
    if (facts.last_line !== undefined && lines.at(-1) !== facts.last_line) bad.push(`last: ${lines.at(-1)}`)
    if (facts.num_lines !== undefined && lines.length !== facts.num_lines) bad.push(`lines: ${lines.length}`)
    return bad.length ? { status: 'differs', detail: bad.join('; ') } : { status: 'identical' }
  }
  const expected = readFileSync(expectedPath, 'utf8')
  if (got === expected) return { status: 'identical' }
  switch (p.compare) {
    case 'exact':
      return { status: 'differs', detail: firstDiff(got, expected) }
    case 'prefix':
      return got.startsWith(expected) || got.split('\n').slice(0, 3).join('\n') === expected.trim()
        ? { status: 'identical' }
        : { status: 'differs', detail: firstDiff(got, expected) }
    case 'cdx-no-header': {
      const g = got.split('\n').filter((l) => l && !l.startsWith(' CDX')).join('\n')
      return g === expected.trim() ? { status: 'equivalent' } : { status: 'differs', detail: firstDiff(g, expected.trim()) }
    }
    case 'dicts': {
      const g = parseCdxj(got)
      const e = parseCdxj(expected)
      return canon(g) === canon(e) ? { status: 'equivalent' } : { status: 'differs', detail: firstDiff(canon(g), canon(e)) }
    }
    case 'warcio-json': {
      const e = expected.trim().split('\n').map((l) => JSON.parse(l))
      // warcio.js leaves the key out of warcinfo rows, where CDXJ writes '-'.
      const g = parseCdxj(got).map((l) => ({ ...(l.urlkey !== '-' && { urlkey: l.urlkey }), timestamp: l.timestamp, ...l.obj }))
      const keys = [...new Set(e.flatMap((x) => Object.keys(x)))]
      const norm = (rows) => JSON.stringify(rows.map((r) => Object.fromEntries(keys.filter((k) => k in r).map((k) => [k, String(r[k]).replace(/^sha1:/, '')]))))
      return norm(g) === norm(e) ? { status: 'equivalent' } : { status: 'differs', detail: firstDiff(norm(g), norm(e)) }
    }
  }
  return { status: 'differs', detail: 'no comparison' }
}

function firstDiff(a, b) {
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  return `at char ${i}: got ${JSON.stringify(a.slice(Math.max(0, i - 60), i + 80))} expected ${JSON.stringify(b.slice(Math.max(0, i - 60), i + 80))}`
}

if (!corpusPresent) {
  test('conformance with the reference indexers', (t) => {
    console.log('SKIPPED: ../shared/corpus is not present; conformance cases were not run')
    t.log('SKIPPED: ../shared/corpus is not present')
    t.pass()
  })
} else {
  test('conformance with the reference indexers (reference-cases.json)', async (t) => {
    const { cases } = JSON.parse(readFileSync(join(CORPUS, 'reference-cases.json'), 'utf8'))
    const results = []
    for (const c of cases) {
      const dir = mkdtempSync(join(tmpdir(), 'warcdex-conf-'))
      try {
        results.push({ c, ...(await evaluate(c, dir)) })
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
    const applicable = results.filter((r) => r.status !== 'not-applicable')
    const identical = applicable.filter((r) => r.status === 'identical')
    const equivalent = applicable.filter((r) => r.status === 'equivalent')
    const differs = applicable.filter((r) => r.status === 'differs')
    const undocumented = differs.filter((r) => !(r.c.id in DOCUMENTED))
    const report =
      `${identical.length} of ${applicable.length} cases identical` +
      `, ${equivalent.length} equal under the reference's own comparison (JSON dicts, records),` +
      ` ${differs.length - undocumented.length} documented differences, ${undocumented.length} undocumented`
    console.log(`conformance: ${report}`)
    t.log(report)
    for (const r of differs) {
      const why = DOCUMENTED[r.c.id]
      t.log(`case ${r.c.id} (${basename(r.c.inputs[0] ?? '')}, ${r.c.tool.slice(0, 24)}): ${why ? `documented: ${why}` : `UNDOCUMENTED: ${r.detail}`}`)
    }
    t.deepEqual(undocumented.map((r) => r.c.id), [], 'undocumented differences from the references')
    // Documented cases that now match should leave the list, so it stays true.
    const stale = Object.keys(DOCUMENTED).map(Number).filter((id) => results.some((r) => r.c.id === id && r.status !== 'differs'))
    t.deepEqual(stale, [], 'cases listed as different that now match')
  })
}
