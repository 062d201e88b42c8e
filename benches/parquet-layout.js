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
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execFileSync } from 'node:child_process'
import { DuckDBInstance } from '@duckdb/node-api'

import { ccCdxjFile, diskSize, emitCcCdxj } from './lib/cc-cdxj.js'

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
/** The generated CDXJ (set in main). */
let input


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
  input = await ccCdxjFile(root, ROWS)
  const db = await DuckDBInstance.create(':memory:', { threads: THREADS })
  const c = await db.connect()
  const rows = async (sql) => (await c.runAndReadAll(sql)).getRowObjects()
  const results = []
  for (const g of GROUPS) {
    const out = join(dir, `layout-${g}`)
    const secs = convert(out, g)
    const glob = `${out}/**/*.parquet`
    const total = (await rows(`SELECT count(*)::INT n FROM (SELECT DISTINCT file_name, row_group_id FROM parquet_metadata('${glob}'))`))[0].n
    const r = { g, secs, bytes: diskSize(out), total, q: [] }
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
;(emitRows ? emitCcCdxj(process.stdout, Number(emitRows)) : main()).catch((e) => {
  console.error(e)
  process.exit(1)
})
