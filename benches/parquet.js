#!/usr/bin/env node
// CDXJ → Parquet: warcdex parquet (every cc-index-table column derived, sorted
// by url_surtkey) against DuckDB's plain conversion of the same CDXJ
// (`COPY ... TO ... (FORMAT parquet, COMPRESSION zstd)`, three columns, no
// derivation), in the same run, one core each. A third row converts the
// same CDXJ sorted, as Common Crawl's and cdxj-indexer's indexes come
// (warcdex then skips its sort); the targets are on the unsorted input.
//
//   node benches/parquet.js [--rows N] [--runs R]
//
// The CDXJ is generated here (Common Crawl style: CC paths, mime-detected,
// charset, languages; unsorted), under .bench-data/parquet/.
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execFileSync } from 'node:child_process'
import os from 'node:os'

import { ccCdxjFile, ccCdxjSortedFile, diskSize } from './lib/cc-cdxj.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : dflt
}
const ROWS = opt('rows', 1_000_000)
const RUNS = opt('runs', 3)
const dir = join(root, '.bench-data', 'parquet')
mkdirSync(dir, { recursive: true })
/** The generated CDXJ (set in main). */
let input


// Each contender runs in its own process pinned to one core, so the numbers are per core.
function timed(cmd, cmdArgs) {
  const pin = (() => { try { execFileSync('taskset', ['-V'], { stdio: 'ignore' }); return true } catch { return false } })()
  const t0 = process.hrtime.bigint()
  execFileSync(pin ? 'taskset' : cmd, pin ? ['-c', '0', cmd, ...cmdArgs] : cmdArgs, { stdio: ['ignore', 'ignore', 'inherit'] })
  return Number(process.hrtime.bigint() - t0) / 1e9
}

const duckScript = (out) => `
import { DuckDBInstance } from '@duckdb/node-api'
const db = await DuckDBInstance.create(':memory:', { threads: '1' })
const c = await db.connect()
await c.run(\`COPY (SELECT split_part(line, ' ', 1) AS urlkey, split_part(line, ' ', 2) AS timestamp,
  substr(line, length(split_part(line, ' ', 1)) + length(split_part(line, ' ', 2)) + 3) AS json
  FROM read_csv('${input}', columns = {'line': 'VARCHAR'}, delim = '\\x01', quote = '', escape = '', header = false))
  TO '${out}' (FORMAT parquet, COMPRESSION zstd)\`)
`

async function main() {
  input = await ccCdxjFile(root, ROWS)
  const sortedInput = await ccCdxjSortedFile(root, ROWS)
  const inBytes = statSync(input).size
  const duckJs = join(root, '.bench-data', 'parquet', 'duck.mjs')
  const results = { warcdex: [], duckdb: [], sorted: [] }
  let wBytes = 0
  let dBytes = 0
  for (let r = 0; r < RUNS; r++) {
    const wOut = join(dir, 'out-warcdex')
    rmSync(wOut, { recursive: true, force: true })
    results.warcdex.push(timed('node', [join(root, 'bin', 'warcdex.js'), 'parquet', '-q', input, wOut]))
    wBytes = diskSize(wOut)
    const dOut = join(dir, 'out-duckdb.parquet')
    rmSync(dOut, { force: true })
    // Under the repository, so '@duckdb/node-api' resolves from its node_modules.
    writeFileSync(duckJs, duckScript(dOut))
    results.duckdb.push(timed('node', [duckJs]))
    dBytes = diskSize(dOut)
    if (sortedInput) {
      rmSync(wOut, { recursive: true, force: true })
      results.sorted.push(timed('node', [join(root, 'bin', 'warcdex.js'), 'parquet', '-q', sortedInput, wOut]))
    }
  }
  const best = (a) => Math.min(...a)
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor((a.length - 1) / 2)]
  const w = best(results.warcdex)
  const d = best(results.duckdb)
  const [wm, dm] = [median(results.warcdex), median(results.duckdb)]
  const mb = (b) => (b / 1e6).toFixed(1)
  const rate = (s) => Math.round(ROWS / s).toLocaleString('en-US')
  const lines = [
    `CDXJ → Parquet, ${ROWS.toLocaleString('en-US')} rows (${mb(inBytes)} MB CDXJ, Common Crawl style, unsorted), ${RUNS} runs, one core each (taskset), ${os.cpus()[0]?.model ?? 'cpu'}:`,
    '',
    '| converter | best | median | rows/s (median) | output |',
    '|---|---|---|---|---|',
    `| warcdex parquet (30 derived columns, sorted, zstd) | ${w.toFixed(2)} s | ${wm.toFixed(2)} s | ${rate(wm)} | ${mb(wBytes)} MB |`,
    `| DuckDB COPY (3 columns, no derivation, zstd) | ${d.toFixed(2)} s | ${dm.toFixed(2)} s | ${rate(dm)} | ${mb(dBytes)} MB |`,
    ...(sortedInput
      ? [`| warcdex parquet, the same CDXJ sorted (no sort needed) | ${best(results.sorted).toFixed(2)} s | ${median(results.sorted).toFixed(2)} s | ${rate(median(results.sorted))} | ${mb(wBytes)} MB |`]
      : []),
    '',
    `warcdex takes ${(wm / dm).toFixed(2)}x DuckDB's time (medians); runs: warcdex ${results.warcdex.map((x) => x.toFixed(2)).join(', ')} s, DuckDB ${results.duckdb.map((x) => x.toFixed(2)).join(', ')} s.`,
    sortedInput
      ? `On the sorted CDXJ warcdex takes ${(median(results.sorted) / dm).toFixed(2)}x DuckDB's time; runs: ${results.sorted.map((x) => x.toFixed(2)).join(', ')} s.`
      : 'coreutils sort is missing: the sorted input was not run.',
  ]
  console.log(lines.join('\n'))
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
