#!/usr/bin/env node
// Row-group size against min/max skipping: one generated CDXJ converted with
// several --row-group-rows values, then typical selective queries timed with
// DuckDB, next to how many row groups the min/max statistics of the filtered
// column exclude (from parquet_metadata()) and the dataset size.
//
//   node benches/parquet-layout.js [--rows N] [--groups 20000,100000,1000000] [--runs R] [--threads T]
//   node benches/parquet-layout.js --emit N    # N generated lines to stdout (for the peak-RSS runs)
//
// The conversion uses the `convert` example binary when it is built
// (cargo build --release -p warcdex-parquet --example convert; honours
// CARGO_TARGET_DIR), else `node bin/warcdex.js parquet`. The CDXJ is the one
// benches/parquet.js generates (same generator and seed), under .bench-data/parquet/.
import { mkdirSync, readdirSync, rmSync, statSync, createWriteStream, existsSync } from 'node:fs'
import { once } from 'node:events'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execFileSync } from 'node:child_process'
import { DuckDBInstance } from '@duckdb/node-api'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : dflt
}
const ROWS = Number(opt('rows', 4_000_000))
const GROUPS = String(opt('groups', '20000,100000,1000000')).split(',').map(Number)
const RUNS = Number(opt('runs', 5))
const THREADS = String(opt('threads', 1))
const dir = join(root, '.bench-data', 'parquet')
mkdirSync(dir, { recursive: true })
const input = join(dir, `cc-${ROWS}.cdxj`)

// The generator of benches/parquet.js (kept identical: same file for the same --rows).
async function generate() {
  if (existsSync(input)) return
  const out = createWriteStream(input)
  await emit(out, ROWS)
  out.end()
  await once(out, 'finish')
}

async function emit(out, rows) {
  const tlds = ['com', 'org', 'net', 'de', 'co.uk', 'no', 'fr', 'jp', 'com.au', 'blogspot.com']
  const words = ['alpha', 'beta', 'news', 'shop', 'blog', 'wiki', 'forum', 'media', 'data', 'city', 'home', 'music']
  const mimes = [['text/html', 'text/html'], ['text/html', 'application/xhtml+xml'], ['application/pdf', 'application/pdf'], ['image/jpeg', 'image/jpeg'], ['text/css', 'text/css']]
  let seed = 42
  const rnd = (n) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), (seed >>> 8) % n)
  for (let i = 0; i < rows; i++) {
    const tld = tlds[rnd(tlds.length)]
    const dom = `${words[rnd(words.length)]}${rnd(5000)}`
    const sub = ['www', 'm', 'en', 'shop'][rnd(4)]
    const host = `${sub}.${dom}.${tld}`
    const path = `/${words[rnd(words.length)]}/${rnd(100000)}${rnd(3) === 0 ? '?id=' + rnd(999) : ''}`
    const url = `https://${host}${path}`
    const key = `${host.split('.').reverse().join(',')})${path}`
    const status = [200, 200, 200, 200, 301, 404][rnd(6)]
    const subset = status === 200 ? 'warc' : 'crawldiagnostics'
    const [mime, det] = mimes[rnd(mimes.length)]
    const seg = `17159710572${String(rnd(100)).padStart(2, '0')}.39`
    const j = { url, mime, 'mime-detected': det, status: String(status), digest: 'RY7PLBUFQNI2FFV5FTUQK72W6SNPX' + String(rnd(1000)).padStart(3, '0'), length: String(500 + rnd(60000)), offset: String(rnd(1e9)), filename: `crawl-data/CC-MAIN-2024-22/segments/${seg}/${subset}/CC-MAIN-20240517233122-20240518023122-${String(rnd(900)).padStart(5, '0')}.warc.gz`, charset: 'UTF-8', languages: ['eng', 'deu', 'fra,eng'][rnd(3)] }
    if (!out.write(`${key} 202405${[1 + rnd(28), rnd(24), rnd(60), rnd(60)].map((v) => String(v).padStart(2, '0')).join('')} ${JSON.stringify(j)}\n`)) await once(out, 'drain')
  }
}

function size(p) {
  const st = statSync(p)
  if (!st.isDirectory()) return st.size
  return readdirSync(p).reduce((a, n) => a + size(join(p, n)), 0)
}

function convert(out, groupRows) {
  rmSync(out, { recursive: true, force: true })
  const bin = join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'release', 'examples', 'convert')
  const t0 = process.hrtime.bigint()
  if (existsSync(bin)) {
    execFileSync(bin, [out, input], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ROW_GROUP_ROWS: String(groupRows) } })
  } else {
    execFileSync('node', [join(root, 'bin', 'warcdex.js'), 'parquet', '-q', '--row-group-rows', String(groupRows), input, out], { stdio: ['ignore', 'ignore', 'inherit'] })
  }
  return Number(process.hrtime.bigint() - t0) / 1e9
}

// Each query: the column whose statistics decide, and whether a row group's
// [min, max] can hold a match (string order is byte order, as Parquet's).
const queries = [
  { name: 'one registered domain', col: 'url_host_registered_domain', where: "url_host_registered_domain = 'news1234.com'", keep: "stats_min_value <= 'news1234.com' AND stats_max_value >= 'news1234.com'" },
  { name: 'url_surtkey prefix range', col: 'url_surtkey', where: "url_surtkey >= 'com,news12' AND url_surtkey < 'com,news13'", keep: "stats_max_value >= 'com,news12' AND stats_min_value < 'com,news13'" },
  { name: 'one url_host_tld value', col: 'url_host_tld', where: "url_host_tld = 'no'", keep: "stats_min_value <= 'no' AND stats_max_value >= 'no'" },
  // The cost side: a scan no statistics can narrow.
  { name: 'full scan (fetch_status = 200)', col: 'fetch_status', where: 'fetch_status = 200', keep: 'true' },
]

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]

async function main() {
  await generate()
  const db = await DuckDBInstance.create(':memory:', { threads: THREADS })
  const c = await db.connect()
  const rows = async (sql) => (await c.runAndReadAll(sql)).getRowObjects()
  const results = []
  for (const g of GROUPS) {
    const out = join(dir, `layout-${g}`)
    const secs = convert(out, g)
    const glob = `${out}/**/*.parquet`
    const total = (await rows(`SELECT count(*)::INT n FROM (SELECT DISTINCT file_name, row_group_id FROM parquet_metadata('${glob}'))`))[0].n
    const r = { g, secs, bytes: size(out), total, q: [] }
    for (const q of queries) {
      const kept = (await rows(`SELECT count(*)::INT n FROM parquet_metadata('${glob}') WHERE path_in_schema = '${q.col}' AND coalesce(${q.keep}, true)`))[0].n
      const sql = `SELECT count(*)::BIGINT n, sum(warc_record_length)::BIGINT len, max(url) u FROM read_parquet('${glob}', hive_partitioning = true) WHERE ${q.where}`
      const first = (await rows(sql))[0] // also warms the page cache
      const times = []
      for (let i = 0; i < RUNS; i++) {
        const t0 = process.hrtime.bigint()
        await rows(sql)
        times.push(Number(process.hrtime.bigint() - t0) / 1e6)
      }
      r.q.push({ kept, ms: median(times), n: Number(first.n) })
    }
    results.push(r)
    rmSync(out, { recursive: true, force: true })
  }
  const lines = [
    `${ROWS.toLocaleString('en-US')} rows (benches/parquet.js's generator), DuckDB ${THREADS} thread(s), median of ${RUNS} warm runs; "skipped" = row groups whose min/max statistics of the filtered column exclude the predicate:`,
    '',
    `| row group rows | row groups | dataset size | ${queries.map((q) => `${q.name}: ms, skipped`).join(' | ')} |`,
    `|---:|---:|---:|${queries.map(() => '---:').join('|')}|`,
    ...results.map((r) => `| ${r.g.toLocaleString('en-US')} | ${r.total} | ${(r.bytes / 1e6).toFixed(1)} MB | ${r.q.map((x) => `${x.ms.toFixed(1)} ms, ${r.total - x.kept}/${r.total}`).join(' | ')} |`),
    '',
    `Matching rows: ${queries.map((q, i) => `${q.name} ${results[0].q[i].n.toLocaleString('en-US')}`).join(', ')}. Conversion: ${results.map((r) => `${r.secs.toFixed(1)} s`).join(' / ')}.`,
  ]
  console.log(lines.join('\n'))
}

const emitRows = opt('emit', null)
;(emitRows ? emit(process.stdout, Number(emitRows)) : main()).catch((e) => {
  console.error(e)
  process.exit(1)
})
