#!/usr/bin/env node
// The training run of the profile-guided build (scripts/build.mjs): the
// instrumented addon does the jobs warcdex is used for, on data generated
// here, and counts which branches and calls its hot paths take. Whatever it
// leaves out is laid out as rarely run, so it covers every command's hot
// path: WARC/ARC indexing (gzip, uncompressed, zstd, ARC, computed digests),
// CDX(J) writing and sorting, summaries, Parquet from CDXJ (unsorted and
// sorted), CDX and WARC, page dumps and the record iterator of the API.
// Seeds differ from the benchmarks' (42), so the benchmarks do not measure
// the very data the build was trained on.
import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

import { emitCcCdxj } from '../benches/lib/cc-cdxj.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'bin', 'warcdex.js')
const dir = mkdtempSync(join(tmpdir(), 'warcdex-pgo-'))
const at = (...p) => join(dir, ...p)

// Standard error is shown only when a step fails: the build's log stays short.
function warcdex (...args) {
  const r = spawnSync(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`warcdex ${args.join(' ')}: exit ${r.status}\n${r.stderr}`)
}

try {
  const t0 = Date.now()
  // Collections of each kind the indexer reads.
  warcdex('sample', at('gz'), '--files', '2', '--size', '12000000', '--hosts', '300', '--seed', '7')
  warcdex('sample', at('warc'), '--format', 'warc', '--files', '1', '--size', '12000000', '--seed', '8')
  warcdex('sample', at('arc'), '--format', 'arc.gz', '--files', '1', '--size', '4000000', '--seed', '9')
  warcdex('sample', at('zst'), '--format', 'warc.zst', '--files', '1', '--size', '4000000', '--seed', '10')
  warcdex('sample', at('nodigest'), '--no-digests', '--files', '1', '--size', '4000000', '--seed', '11')
  const collections = ['gz', 'warc', 'arc', 'zst', 'nodigest'].map((d) => at(d))
  warcdex('index', '-q', '-o', at('all.cdxj'), ...collections)
  warcdex('index', '-q', '-f', 'cdx11', '-o', at('all.cdx'), ...collections)
  warcdex('index', '-q', '--sort', '-o', at('sorted.cdxj'), at('gz'))
  warcdex('summary', '--json', '-o', at('summary.json'), at('all.cdxj'))
  warcdex('summary', '-o', at('summary.txt'), at('all.cdx'))

  // Common Crawl style index lines, as they come and sorted.
  const out = createWriteStream(at('cc.cdxj'))
  await emitCcCdxj(out, 250_000, 7)
  out.end()
  await once(out, 'finish')
  const lines = readFileSync(at('cc.cdxj'), 'latin1').split('\n').filter(Boolean)
  // Key, then timestamp: the order of Common Crawl's and cdxj-indexer's indexes.
  const sortKey = (l) => l.slice(0, l.indexOf(' ', l.indexOf(' ') + 1))
  lines.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0))
  writeFileSync(at('cc-sorted.cdxj'), lines.join('\n') + '\n', 'latin1')
  warcdex('parquet', '-q', at('cc.cdxj'), at('pq-cdxj'))
  warcdex('parquet', '-q', at('cc-sorted.cdxj'), at('pq-sorted'))
  warcdex('parquet', '-q', at('all.cdx'), at('pq-cdx'))
  warcdex('parquet', '-q', at('gz'), at('pq-warc'))
  warcdex('summary', '-o', at('summary-pq.txt'), at('pq-cdxj'))

  // Page dumps.
  warcdex('dump', 'generate', at('dump'), '--segments', '2', '--ids', '300', '--seed', '7')
  warcdex('dump', 'verify', at('dump'))
  const segments = readdirSync(at('dump')).filter((f) => /^data_.*\.tar\.xz$/.test(f)).map((f) => at('dump', f))
  warcdex('dump', 'to-warc', ...segments, '-o', at('dump.warc.gz'))

  // The API's record iterator (batches across the Node boundary), in this process.
  const { indexRecords } = await import('../dist/index.js')
  let rows = 0
  for await (const row of indexRecords([at('gz')])) if (row.urlkey) rows++
  if (rows === 0) throw new Error('the API read no rows')
  process.stderr.write(`pgo-train: done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
