#!/usr/bin/env node
// CDXJ → Parquet: warcdex parquet (every cc-index-table column derived, sorted
// by url_surtkey) against DuckDB's plain conversion of the same CDXJ
// (`COPY ... TO ... (FORMAT parquet, COMPRESSION zstd)`, three columns, no
// derivation), in the same run, one core each.
//
//   node benches/parquet.js [--rows N] [--runs R]
//
// The CDXJ is generated here (Common Crawl style: CC paths, mime-detected,
// charset, languages; unsorted), under .bench-data/parquet/.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync, createWriteStream, existsSync } from 'node:fs'
import { once } from 'node:events'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execFileSync } from 'node:child_process'
import os from 'node:os'

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
const input = join(dir, `cc-${ROWS}.cdxj`)

async function generate() {
  if (existsSync(input)) return
  const tlds = ['com', 'org', 'net', 'de', 'co.uk', 'no', 'fr', 'jp', 'com.au', 'blogspot.com']
  const words = ['alpha', 'beta', 'news', 'shop', 'blog', 'wiki', 'forum', 'media', 'data', 'city', 'home', 'music']
  const mimes = [['text/html', 'text/html'], ['text/html', 'application/xhtml+xml'], ['application/pdf', 'application/pdf'], ['image/jpeg', 'image/jpeg'], ['text/css', 'text/css']]
  let seed = 42
  // 32-bit LCG in integer arithmetic (doubles would lose precision and cycle early).
  const rnd = (n) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), (seed >>> 8) % n)
  const out = createWriteStream(input)
  for (let i = 0; i < ROWS; i++) {
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
  out.end()
  await once(out, 'finish')
}

function size(p) {
  const st = statSync(p)
  if (!st.isDirectory()) return st.size
  return readdirSync(p).reduce((a, n) => a + size(join(p, n)), 0)
}

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
  await generate()
  const inBytes = statSync(input).size
  const duckJs = join(root, '.bench-data', 'parquet', 'duck.mjs')
  const results = { warcdex: [], duckdb: [] }
  let wBytes = 0
  let dBytes = 0
  for (let r = 0; r < RUNS; r++) {
    const wOut = join(dir, 'out-warcdex')
    rmSync(wOut, { recursive: true, force: true })
    results.warcdex.push(timed('node', [join(root, 'bin', 'warcdex.js'), 'parquet', '-q', input, wOut]))
    wBytes = size(wOut)
    const dOut = join(dir, 'out-duckdb.parquet')
    rmSync(dOut, { force: true })
    // Under the repository, so '@duckdb/node-api' resolves from its node_modules.
    writeFileSync(duckJs, duckScript(dOut))
    results.duckdb.push(timed('node', [duckJs]))
    dBytes = size(dOut)
  }
  const best = (a) => Math.min(...a)
  const w = best(results.warcdex)
  const d = best(results.duckdb)
  const mb = (b) => (b / 1e6).toFixed(1)
  const rate = (s) => Math.round(ROWS / s).toLocaleString('en-US')
  const lines = [
    `CDXJ → Parquet, ${ROWS.toLocaleString('en-US')} rows (${mb(inBytes)} MB CDXJ, Common Crawl style, unsorted), best of ${RUNS}, one core each (taskset), ${os.cpus()[0]?.model ?? 'cpu'}:`,
    '',
    '| converter | time | rows/s | output |',
    '|---|---|---|---|',
    `| warcdex parquet (30 derived columns, sorted, zstd) | ${w.toFixed(2)} s | ${rate(w)} | ${mb(wBytes)} MB |`,
    `| DuckDB COPY (3 columns, no derivation, zstd) | ${d.toFixed(2)} s | ${rate(d)} | ${mb(dBytes)} MB |`,
  ]
  console.log(lines.join('\n'))
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
