#!/usr/bin/env node
// warcdex summary against cdx-summary (PyPI cdxsummary) on a generated
// 11-field CDX of 5 million lines (and warcdex alone on the same file read
// twice, to show that memory does not grow with lines). Prints a Markdown
// table; `--lines N` changes the size, `--keep` keeps the file in .bench-data/.
//
//   node benches/summary.js [--lines 5000000] [--runs 1]
import { spawnSync } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { once } from 'node:events'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({ options: { lines: { type: 'string' }, runs: { type: 'string' } } })
const LINES = Number(values.lines ?? 5_000_000)
const RUNS = Number(values.runs ?? 1)
const DATA = join(ROOT, '.bench-data', 'summary')
mkdirSync(DATA, { recursive: true })
const file = join(DATA, `collection-${LINES}.cdx`)

/** A seeded generator: the same file on every machine. */
function rng(seed) {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let z = s
    z = Math.imul(z ^ (z >>> 15), z | 1)
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61)
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296
  }
}

/** Sorted-looking CDX-11: hosts in runs, many URLs per host, realistic MIME/status mix. */
async function generate() {
  const r = rng(42)
  const pick = (a) => a[Math.floor(r() * a.length)]
  const mimes = ['text/html', 'text/html', 'text/html', 'image/jpeg', 'image/png', 'text/css', 'application/javascript', 'application/json', 'application/pdf', 'text/plain', 'warc/revisit', 'font/woff2', 'video/mp4', 'unk']
  const statuses = ['200', '200', '200', '200', '301', '302', '404', '500']
  const out = createWriteStream(file)
  out.write(' CDX N b a m s k r M S V g\n')
  let host = 0
  let left = 0
  let chunk = ''
  for (let i = 0; i < LINES; i++) {
    if (left-- <= 0) {
      host++
      left = Math.floor(r() * 2000)
    }
    const h = `${pick(['com', 'org', 'gov', 'net'])},host${host}`
    const depth = 1 + Math.floor(r() * 5)
    let path = ''
    for (let d = 0; d < depth; d++) path += '/' + pick(['news', 'img', 'a', 'docs', 'page']) + Math.floor(r() * 50)
    const q = r() < 0.3 ? `?id=${Math.floor(r() * 1e5)}&p=${Math.floor(r() * 9)}` : ''
    const ts = `20${String(10 + Math.floor(r() * 14))}${String(1 + Math.floor(r() * 12)).padStart(2, '0')}1512${String(Math.floor(r() * 6e3)).padStart(4, '0')}`
    const mime = pick(mimes)
    const status = mime === 'warc/revisit' ? '-' : pick(statuses)
    const hn = h.split(',').reverse().join('.')
    chunk += `${h})${path}${q} ${ts} http://www.${hn}${path}${q} ${mime} ${status} ${'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.repeat(2).slice(0, 24)}${Math.floor(r() * 1e7)} - - ${Math.floor(r() * 1e5)} ${Math.floor(r() * 1e9)} crawl-${Math.floor(i / 50000)}.warc.gz\n`
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain')
      chunk = ''
    }
  }
  out.end(chunk)
  await once(out, 'finish')
}

/**
 * Wall time, CPU time (user + system) and peak RSS of a command, measured by
 * Python's getrusage. CPU time is the fairer figure on a busy machine.
 */
function measure(cmd) {
  const out = join(DATA, 'output.json')
  const probe = 'import resource,subprocess,sys,time\nt=time.time()\nr=subprocess.run(sys.argv[2:],stdout=open(sys.argv[1],"wb"),stderr=subprocess.DEVNULL)\nu=resource.getrusage(resource.RUSAGE_CHILDREN)\nprint(time.time()-t, u.ru_utime+u.ru_stime, u.ru_maxrss, r.returncode)'
  const p = spawnSync('python3', ['-c', probe, out, ...cmd], { encoding: 'utf8' })
  const [secs, cpu, rssKb, code] = p.stdout.trim().split(' ').map(Number)
  if (code !== 0) throw new Error(`${cmd.join(' ')} failed`)
  process.stderr.write(`${cmd.slice(0, 4).join(' ')}...: ${secs.toFixed(2)} s wall, ${cpu.toFixed(2)} s CPU, ${(rssKb / 1024).toFixed(0)} MB\n`)
  return { secs, cpu, rssMb: rssKb / 1024, output: readFileSync(out, 'utf8') }
}

const best = (cmd) => {
  let b
  for (let i = 0; i < RUNS; i++) {
    const m = measure(cmd)
    if (!b || m.secs < b.secs) b = m
  }
  return b
}

if (!existsSync(file)) {
  process.stderr.write(`generating ${file} (${LINES} lines)...\n`)
  await generate()
}
const mb = statSync(file).size / 1e6
const warcdex = [process.execPath, join(ROOT, 'bin', 'warcdex.js'), 'summary', '--json', '-s', '0']
const ours = best([...warcdex, file])
const twice = best([...warcdex, file, file])
let theirs
if (spawnSync('python3', ['-c', 'import cdxsummary']).status === 0) theirs = best(['python3', '-m', 'cdxsummary', '-j', '-s', '0', file])
else process.stderr.write('cdx-summary is not installed (python3 -m pip install cdxsummary): only warcdex is measured\n')

const strip = (j) => {
  const { samples: _, ...rest } = JSON.parse(j)
  return JSON.stringify(rest)
}
const same = theirs ? strip(ours.output) === strip(theirs.output) : undefined
const row = (name, m, lines) => `| ${name} | ${lines.toLocaleString('en-US')} | ${m.secs.toFixed(1)} | ${m.cpu.toFixed(1)} | ${Math.round(lines / m.cpu).toLocaleString('en-US')} | ${m.rssMb.toFixed(0)} |`
console.log(`CDX: ${LINES.toLocaleString('en-US')} lines, ${mb.toFixed(0)} MB; best of ${RUNS} run(s)\n`)
console.log('| tool | lines | wall s | CPU s | lines per CPU s | peak RSS (MB) |\n|---|---:|---:|---:|---:|---:|')
if (theirs) console.log(row('cdx-summary 0.1.1b5 (`cdxsummary -j -s 0`)', theirs, LINES))
console.log(row('warcdex summary --json -s 0', ours, LINES))
console.log(row('warcdex summary --json -s 0 (the file twice)', twice, 2 * LINES))
if (theirs) console.log(`\nspeed-up: ${(theirs.cpu / ours.cpu).toFixed(1)}× in CPU time, ${(theirs.secs / ours.secs).toFixed(1)}× in wall time; same JSON (samples excluded): ${same}`)
