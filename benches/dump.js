// Page-dump segment benchmark: verify, index and to-warc throughput against
// `xz -dc > /dev/null` on the same segment, and lookups on a table built
// from generated manifest rows.
//
//   node benches/dump.js [--pages 100000] [--page-bytes 15000] [--xz-level 6]
//                        [--rows 83000000] [--dir DIR] [--keep]
//                        [--segment data_*.tar.xz] [--runs 3]
//
// Page throughput: one generated segment of --pages ids (about 200 MB
// compressed with the defaults, like the dump's segments), or --segment, one
// generated before. Each command runs as the CLI does, pinned to one core
// (`taskset -c 0`, like `xz -dc`) and then free to use every core (warcdex
// decodes on one thread and checks, hashes and gzips on others); ratio = xz
// wall time / command wall time, medians of --runs (>= 0.9 wanted for verify
// and index, >= 0.5 for to-warc). Lookups: --rows manifest rows
// in segments of 100,000 ids, one table, 200 URLs looked up in one process
// (the table's sparse index read once) and 5 one-shot CLI lookups.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'

import { buildDumpLookup, generateDump, lookupDump } from '../dist/index.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'warcdex.js')
const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '100000' },
    'page-bytes': { type: 'string', default: '15000' },
    'xz-level': { type: 'string', default: '6' },
    threads: { type: 'string', default: '2' },
    rows: { type: 'string', default: '83000000' },
    dir: { type: 'string' },
    keep: { type: 'boolean' },
    skip: { type: 'string', default: '' },
    segment: { type: 'string' },
    runs: { type: 'string', default: '3' },
  },
})
const skip = new Set(values.skip.split(',').filter(Boolean))
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'warcdex-dump-bench-'))
mkdirSync(dir, { recursive: true })
const t0 = () => process.hrtime.bigint()
const secs = (a) => Number(process.hrtime.bigint() - a) / 1e9
const sh = (cmd) => {
  const a = t0()
  const r = spawnSync('sh', ['-c', cmd], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
  return { s: secs(a), status: r.status, stderr: r.stderr }
}
const MB = 1e6
const out = []
const say = (line) => {
  out.push(line)
  console.log(line)
}

say(`dump benchmark: ${values.pages} pages, --page-bytes ${values['page-bytes']}, xz -${values['xz-level']}, rows ${values.rows}`)
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const timed = (cmd) => {
  const runs = []
  for (let i = 0; i < Number(values.runs); i++) {
    const r = sh(cmd)
    // 1 means problems were found (the segment has pages that fail their md5 on purpose).
    if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} failed: ${r.stderr}`)
    runs.push(r.s)
  }
  return median(runs)
}
if (!skip.has('pages')) {
  let seg
  if (values.segment) {
    // xz's own list gives the decoded size without decoding.
    const totals = spawnSync('xz', ['--robot', '-l', values.segment], { encoding: 'utf8' }).stdout.split('\n').find((l) => l.startsWith('totals'))
    seg = { data: values.segment, uncompressedBytes: Number(totals.split('\t')[4]), dataBytes: statSync(values.segment).size }
    say(`segment ${values.segment}: ${(seg.dataBytes / MB).toFixed(1)} MB compressed, ${(seg.uncompressedBytes / MB).toFixed(1)} MB tar`)
  } else {
    const segDir = join(dir, 'segment')
    const a = t0()
    const rep = await generateDump(segDir, {
      segments: 1,
      idsPerSegment: Number(values.pages),
      pageBytes: Number(values['page-bytes']),
      xzLevel: Number(values['xz-level']),
      threads: Number(values.threads),
      // The threaded encoder cuts blocks; 64 MiB ones keep extract seekable.
      blockSize: 64 << 20,
      badMd5Rate: 0.001,
      master: true,
    })
    seg = rep.segments[0]
    say(`generated ${seg.pages} pages: ${(seg.dataBytes / MB).toFixed(1)} MB compressed, ${(seg.uncompressedBytes / MB).toFixed(1)} MB tar, in ${secs(a).toFixed(0)} s`)
  }
  const xz = timed(`taskset -c 0 xz -dc '${seg.data}' > /dev/null`)
  say(`xz -dc > /dev/null (1 core): ${xz.toFixed(2)} s, ${(seg.uncompressedBytes / MB / xz).toFixed(0)} MB/s decoded`)
  const warc = join(dir, 'out.warc.gz')
  const cmds = [
    ['verify', `node ${BIN} dump verify -q '${seg.data}'`, 0.9],
    ['index', `node ${BIN} index -q '${seg.data}' -o /dev/null`, 0.9],
    ['to-warc (gzip -6)', `node ${BIN} dump to-warc -q --force '${seg.data}' -o '${warc}' 2>/dev/null`, 0.5],
    ['to-warc (gzip -1)', `node ${BIN} dump to-warc -q --force --level 1 '${seg.data}' -o '${warc}' 2>/dev/null`, 0.5],
  ]
  for (const [name, cmd, want] of cmds) {
    for (const [cores, prefix] of [['1 core', 'taskset -c 0 '], ['all cores', '']]) {
      const s = timed(prefix + cmd)
      const ratio = xz / s
      say(`${name} (${cores}): ${s.toFixed(2)} s, ${(seg.uncompressedBytes / MB / s).toFixed(0)} MB/s, ${ratio.toFixed(2)}x xz (want >= ${want}) ${ratio >= want ? 'ok' : 'BELOW'}`)
    }
  }
}

if (!skip.has('lookup')) {
  const rows = Number(values.rows)
  const manDir = join(dir, 'manifests')
  let a = t0()
  await generateDump(manDir, { manifestsOnly: true, segments: Math.ceil(rows / 100000), idsPerSegment: 100000, xzLevel: 0, hosts: 5000, gapRate: 0, repeatRate: 0.2 })
  say(`generated ${Math.ceil(rows / 100000)} manifests in ${secs(a).toFixed(0)} s`)
  a = t0()
  const table = join(dir, 'lookup.wdxl')
  const b = await buildDumpLookup([manDir], table, { sortBudget: 1 << 30, force: true })
  say(`build-lookup: ${b.rows} rows, ${b.blocks} blocks, ${(b.bytes / MB).toFixed(0)} MB, ${secs(a).toFixed(0)} s`)
  // URLs to look up: rows of manifests spread over the whole range.
  const files = readdirSync(manDir).filter((f) => f.startsWith('manifest_')).sort()
  const urls = []
  for (let i = 0; i < 200; i++) {
    const f = join(manDir, files[Math.floor((i * files.length) / 200)])
    const text = spawnSync('sh', ['-c', `xz -dc '${f}' | sed -n '${2 + ((i * 7919) % 90000)}p'`], { encoding: 'utf8' }).stdout
    urls.push(text.split('\t')[2])
  }
  a = t0()
  const res = await lookupDump(urls, { table })
  const total = secs(a)
  const micros = res.map((r) => r.micros).sort((x, y) => x - y)
  const found = res.filter((r) => r.versions.length > 0).length
  say(`lookup, 200 URLs in one process: ${found} found, median ${(micros[100] / 1000).toFixed(2)} ms, p99 ${(micros[197] / 1000).toFixed(2)} ms, max ${(micros[199] / 1000).toFixed(2)} ms, ${((total * 1000) / 200).toFixed(2)} ms/URL with the table opened once`)
  const cli = []
  for (let i = 0; i < 5; i++) cli.push(sh(`node ${BIN} dump lookup '${urls[i * 37]}' --table '${table}'`).s * 1000)
  say(`lookup CLI one-shot (node start + open + lookup): ${cli.map((x) => x.toFixed(0)).join(', ')} ms`)
  say(`table file: ${(statSync(table).size / MB).toFixed(0)} MB`)
}
if (!values.keep && !values.dir) rmSync(dir, { recursive: true, force: true })
