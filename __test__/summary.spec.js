// `warcdex summary` against cdx-summary itself (PyPI cdxsummary, installed
// here if missing): the same numbers from the same 11-field CDX files (the
// corpus's, and generated ones with every MIME and status group, unsorted
// lines, '-' fields, 9-field lines and lines cdx-summary skips), compared
// number by number, samples excluded; the same captures as CDXJ, WARC,
// gzip, bzip2 and stdin give the same summary; the HTML report renders in
// headless Chromium without console errors, and screenshots go to __test__/out/.
import test from 'ava'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

import { generateSample, renderSummaryHtml, summarize, writeIndex, writeParquet } from '../dist/index.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'warcdex.js')
const CORPUS = join(ROOT, '..', 'shared', 'corpus')
const OUT = join(ROOT, '__test__', 'out')
const dir = mkdtempSync(join(tmpdir(), 'warcdex-summary-'))
test.after.always(() => rmSync(dir, { recursive: true, force: true }))

const python = (args, opts = {}) => spawnSync('python3', args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts })

// cdx-summary from PyPI; without it the comparisons say SKIPPED.
let haveCdxSummary = python(['-c', 'import cdxsummary']).status === 0
if (!haveCdxSummary) {
  python(['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', 'cdxsummary'])
  haveCdxSummary = python(['-c', 'import cdxsummary']).status === 0
  if (!haveCdxSummary) console.log('SKIPPED: cdx-summary comparisons (python3 -m pip install cdxsummary failed)')
}

/** cdx-summary's summary JSON: all hosts (bare -t), no samples (they are random). */
function cdxSummary(file) {
  const r = python(['-m', 'cdxsummary', '-t', '-j', '-s', '0', file])
  if (r.status !== 0) throw new Error(`cdxsummary failed on ${file}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

function cdxReport(file) {
  const r = python(['-m', 'cdxsummary', '-r', '-s', '0', file])
  if (r.status !== 0) throw new Error(`cdxsummary -r failed on ${file}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

/** Every number of two summaries, as `path = value` lines in key order (so order counts too). */
function flatten(v, path = '', out = []) {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    out.push(`${path} keys ${JSON.stringify(Object.keys(v))}`)
    for (const [k, x] of Object.entries(v)) flatten(x, `${path}.${k}`, out)
  } else out.push(`${path} = ${JSON.stringify(v)}`)
  return out
}

function withoutSamples(s) {
  const { samples: _, ...rest } = s
  return rest
}

/** Number-by-number comparison; returns how many values were compared. */
function assertSameSummary(t, ours, theirs, what) {
  const a = flatten(withoutSamples(ours))
  const b = flatten(withoutSamples(theirs))
  const diffs = []
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) diffs.push(`warcdex ${a[i]}\ncdx-sum ${b[i]}`)
  t.deepEqual(diffs.slice(0, 10), [], `${what}: ${diffs.length} differences`)
  return b.length
}

// A small seeded generator, so the synthetic CDX is the same on every run.
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

const MIMES = [
  'text/html', 'text/html', 'text/html', 'image/jpeg', 'image/png', 'text/css', 'application/javascript', 'text/javascript',
  'application/x-javascript', 'application/json', 'text/xml', 'application/rss+xml', 'application/xhtml+xml', 'text/plain',
  'application/pdf', 'font/woff2', 'application/font-woff', 'audio/mpeg', 'video/mp4', 'warc/revisit', 'unk', '-',
  'text/html;charset=utf-8', 'TEXT/HTML', 'application/xml-dtd', 'image/svg+xml', 'application/octet-stream',
]
const STATUSES = ['200', '200', '200', '301', '302', '304', '404', '403', '500', '503', '-', '102', '999', '600', '199']

/**
 * 11-field CDX lines (and some 9-field ones, and lines cdx-summary skips),
 * in random order: every MIME and status group, '-' for missing values,
 * many path and query lengths, 30 years, odd bytes.
 */
function syntheticCdx(lines, seed) {
  const r = rng(seed)
  const pick = (a) => a[Math.floor(r() * a.length)]
  const hosts = Array.from({ length: 700 }, (_, i) => `${pick(['com', 'org', 'gov', 'co,uk', 'io,github', 'de'])},site${i % 350}${i >= 350 ? ',www2' : ''}`)
  hosts.push('b.a', 'a,b', '254,1,168,192', 'com,example:8080') // 'b.a' and 'a,b' share cdx-summary's label
  const out = [' CDX N b a m s k r M S V g']
  for (let i = 0; i < lines; i++) {
    const host = r() < 0.3 ? hosts[Math.floor(r() * 8)] : pick(hosts)
    const depth = Math.floor(r() * 8)
    let path = ''
    for (let d = 0; d < depth; d++) path += '/' + pick(['a', 'news', 'img', 'x1', '', 'p'])
    if (r() < 0.2) path += '/'
    if (r() < 0.02) path += '/robots.txt'
    const nq = r() < 0.6 ? 0 : Math.floor(r() * 9)
    const query = nq ? '?' + Array.from({ length: nq }, (_, k) => (r() < 0.05 ? '' : `k${k}=${Math.floor(r() * 5)}`)).join('&') : ''
    const surt = `${host})${path || (r() < 0.5 ? '/' : '')}${query}`
    const y = 1996 + Math.floor(r() * 29)
    const mo = r() < 0.001 ? 13 : 1 + Math.floor(r() * 12)
    const ts = `${y}${String(mo).padStart(2, '0')}${String(1 + Math.floor(r() * 28)).padStart(2, '0')}${String(Math.floor(r() * 24)).padStart(2, '0')}0000`
    const hostname = host.split(',').reverse().join('.')
    const url = `http://${hostname}${r() < 0.05 ? ':80' : ''}${path || '/'}${query}`
    const mime = pick(MIMES)
    const status = mime === 'warc/revisit' ? '-' : pick(STATUSES)
    const digest = r() < 0.03 ? '-' : `D${Math.floor(r() * 40000)}`
    const bytes = r() < 0.05 ? '-' : String(Math.floor(r() * 100000))
    const file = `crawl-${Math.floor(r() * 7)}.warc.gz`
    const x = r()
    if (x < 0.05) out.push(`${surt} ${ts} ${url} ${mime} ${status} ${digest} - ${Math.floor(r() * 1e6)} ${file}`) // 9 fields
    else if (x < 0.06) out.push(`${surt} ${ts} ${url} ${mime} ${status} ${digest} http://r.example/p${i} - ${bytes} 0 ${file}`)
    else if (x < 0.065) out.push(`dns:${hostname} ${ts} dns:${hostname} text/dns - ${digest} - - 300 0 ${file}`)
    else if (x < 0.07) out.push(`${surt} ${ts.slice(0, 12)} ${url} ${mime} ${status} ${digest} - - ${bytes} 0 ${file}`)
    else if (x < 0.075) out.push(`${surt}\t${ts}\t${url} ${mime} ${status} ${digest} - - ${bytes} 0 ${file}\r`)
    else if (x < 0.078) out.push(`${surt} ${ts} ${url} ${mime}  ${status} ${digest} - - ${bytes} 0 ${file}`) // two spaces: skipped
    else if (x < 0.08) out.push(`${surt} ${ts} ${url}/caf\u00e9 ${mime} ${status} ${digest} - - \u0661\u0662 0 ${file}`) // Arabic-Indic digits
    else out.push(`${surt} ${ts} ${url} ${mime} ${status} ${digest} - - ${bytes} ${Math.floor(r() * 1e6)} ${file}`)
  }
  out.push('')
  return out.join('\n')
}

let synthetic // unsorted, 120,000 lines
let sortedFile // the same lines sorted
let realistic // warcdex's own index of a generated collection, 11-field CDX
let realisticCdxj
let warcDir
test.before(async () => {
  synthetic = join(dir, 'synthetic.cdx')
  const text = syntheticCdx(120_000, 7)
  // One line with bytes that are not UTF-8: cdx-summary skips it.
  writeFileSync(synthetic, Buffer.concat([Buffer.from(text), Buffer.from('com,bad)/ 20200101000000 http://bad.com/\xff text/html 200 X - - 5 0 f\n', 'latin1')]))
  sortedFile = join(dir, 'sorted.cdx')
  writeFileSync(sortedFile, text.split('\n').filter((l) => l).sort().join('\n') + '\n')
  warcDir = join(dir, 'warc')
  await generateSample(warcDir, { files: 4, targetBytes: 5_000_000, seed: 5 })
  realistic = join(dir, 'realistic.cdx')
  realisticCdxj = join(dir, 'realistic.cdxj')
  await writeIndex(warcDir, { format: 'cdx11', output: realistic })
  await writeIndex(warcDir, { format: 'cdxj', output: realisticCdxj })
})

test('the synthetic CDX covers what the comparison must exercise', async (t) => {
  const { summary, extras } = await summarize(synthetic, { samples: 0 })
  t.true(extras.lines > 100_000)
  for (const [group, row] of Object.entries(summary.mimestatus)) {
    if (group !== 'Revisit') t.true(Object.values(row).every((n) => n > 0), `${group} has every status group`)
  }
  t.true(Object.values(summary.pathquery).every((row) => Object.values(row).every((n) => n > 0)), 'every path/query cell')
  t.true(extras.skippedLines > 1000, 'lines cdx-summary skips')
  t.true(summary.urls > extras.uniqueUrls.count, 'unsorted: consecutive URLs overcount')
})

test('same numbers as cdx-summary on generated CDX files (unsorted, sorted, realistic)', async (t) => {
  if (!haveCdxSummary) return t.pass('SKIPPED: cdx-summary not installed')
  let values = 0
  for (const file of [synthetic, sortedFile, realistic]) {
    const ours = await summarize(file, { samples: 0, top: null })
    values += assertSameSummary(t, ours.summary, cdxSummary(file), relative(dir, file))
  }
  t.log(`compared ${values} values over 3 generated files`)
})

test('same raw report as cdx-summary -r (sparse counts in first-seen order, every host)', async (t) => {
  if (!haveCdxSummary) return t.pass('SKIPPED: cdx-summary not installed')
  const ours = await summarize(synthetic, { samples: 0, report: true })
  assertSameSummary(t, ours.report, cdxReport(synthetic), 'report')
})

test('top 10 hosts: the same hosts in the same order as cdx-summary, ties included', async (t) => {
  if (!haveCdxSummary) return t.pass('SKIPPED: cdx-summary not installed')
  const r = python(['-m', 'cdxsummary', '-j', '-s', '0', sortedFile])
  const theirs = JSON.parse(r.stdout).tophosts
  const ours = (await summarize(sortedFile, { samples: 0 })).summary.tophosts
  t.deepEqual(Object.entries(ours), Object.entries(theirs))
  t.is(Object.keys(ours).length, 10)
})

test('--json and --report print the text cdx-summary prints, byte for byte (key order included)', (t) => {
  if (!haveCdxSummary) return t.pass('SKIPPED: cdx-summary not installed')
  for (const flag of ['-j', '-r']) {
    const theirs = python(['-m', 'cdxsummary', flag, '-s', '0', sortedFile])
    const ours = spawnSync(process.execPath, [BIN, 'summary', flag === '-j' ? '--json' : '--report', '-s', '0', sortedFile], { encoding: 'utf8', maxBuffer: 1 << 26 })
    t.is(ours.status, 0, ours.stderr)
    t.true(ours.stdout === theirs.stdout, `${flag}: the same text`)
  }
  const json = spawnSync(process.execPath, [BIN, 'summary', '--json', '-s', '0', sortedFile], { encoding: 'utf8' }).stdout
  t.true(json.indexOf('"01": ') < json.indexOf('"10": '), 'months in calendar order')
})

function corpusCdxFiles(d = CORPUS, out = []) {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name)
    if (e.isDirectory()) corpusCdxFiles(p, out)
    else if (/\.cdx(\.gz|\.bz2)?$/.test(e.name) && statSync(p).size > 0) out.push(p)
  }
  return out.sort()
}

test('same numbers as cdx-summary on every CDX file of the shared corpus', async (t) => {
  if (!haveCdxSummary) return t.pass('SKIPPED: cdx-summary not installed')
  if (!existsSync(CORPUS)) return t.pass(`SKIPPED: no corpus at ${relative(ROOT, CORPUS)}`)
  const files = corpusCdxFiles()
  t.true(files.length > 10)
  let values = 0
  let compared = 0
  for (const f of files) {
    const ours = await summarize(f, { samples: 0, top: null })
    // A CDXJ file with a .cdx name: cdx-summary reads no line of it, warcdex
    // reads it as CDXJ (compared with its CDX equivalent in another test).
    if (ours.inputs[0].kind === 'cdxj') {
      t.log(`not CDX but CDXJ, left out: ${relative(CORPUS, f)}`)
      continue
    }
    values += assertSameSummary(t, ours.summary, cdxSummary(f), relative(CORPUS, f))
    compared++
  }
  t.true(compared > 10)
  t.log(`compared ${values} values over ${compared} corpus CDX files`)
})

const comparable = (r) => ({ summary: withoutSamples(r.summary), extras: r.extras })

test('the same captures as CDX, CDXJ and WARC give the same summary', async (t) => {
  const cdx = await summarize(realistic, { samples: 0 })
  const cdxj = await summarize(realisticCdxj, { samples: 0 })
  const warc = await summarize(warcDir, { samples: 0 })
  t.is(cdxj.inputs[0].kind, 'cdxj')
  t.true(warc.inputs.every((i) => i.kind === 'warc'))
  t.true(cdx.summary.captures > 500, `${cdx.summary.captures} captures`)
  t.deepEqual(comparable(cdxj), comparable(cdx))
  t.deepEqual(comparable(warc), comparable(cdx))
})

test('a Parquet dataset gives the summary of its equivalent CDX: its rows, in file order', async (t) => {
  // Unpartitioned, the dataset is one file of rows in (url_surtkey, fetch_time)
  // order, ties in input order: that order of the CDX lines is the equivalent CDX.
  const lines = readFileSync(realistic, 'utf8').split('\n').filter((l) => l && !l.startsWith(' CDX'))
  const key = (l) => l.split(' ', 2)
  const equivalent = lines
    .map((l, i) => ({ l, i, k: key(l) }))
    .sort((a, b) => Buffer.compare(Buffer.from(a.k[0]), Buffer.from(b.k[0])) || a.k[1].localeCompare(b.k[1]) || a.i - b.i)
    .map((x) => x.l)
  t.notDeepEqual(equivalent, lines, 'the dataset reorders the lines, so the consecutive counts are tested')
  const equivalentCdx = join(dir, 'equivalent.cdx')
  writeFileSync(equivalentCdx, equivalent.join('\n') + '\n')
  const flat = join(dir, 'dataset-flat')
  await writeParquet(realistic, flat, { partitionBy: [] })
  const pq = await summarize(flat, { samples: 0 })
  t.true(pq.inputs.length === 1 && pq.inputs[0].kind === 'parquet', JSON.stringify(pq.inputs))
  t.deepEqual(comparable(pq), comparable(await summarize(equivalentCdx, { samples: 0 })))

  // Partitioned by crawl and subset: the counts that do not depend on order
  // equal the original CDX's.
  const parted = join(dir, 'dataset')
  await writeParquet(realistic, parted, {})
  const p2 = await summarize(parted, { samples: 0 })
  const cdx = await summarize(realistic, { samples: 0 })
  t.true(p2.inputs.length >= 2, 'one file per partition')
  for (const k of ['captures', 'bytes', 'first', 'last', 'mimestatus', 'pathquery', 'yearmonth']) t.deepEqual(p2.summary[k], cdx.summary[k], k)
  t.deepEqual(p2.extras.uniqueUrls, cdx.extras.uniqueUrls)
  t.deepEqual(p2.extras.uniqueHosts, cdx.extras.uniqueHosts)
})

test('gzip, bzip2, stdin and split files give the same summary as the plain file', async (t) => {
  const plain = await summarize(synthetic, { samples: 0 })
  const gz = join(dir, 's.cdx.gz')
  writeFileSync(gz, gzipSync(readFileSync(synthetic)))
  const bz = join(dir, 's.cdx.bz2')
  const b = python(['-c', 'import bz2,sys; open(sys.argv[2],"wb").write(bz2.compress(open(sys.argv[1],"rb").read()))', synthetic, bz])
  t.is(b.status, 0, b.stderr)
  for (const f of [gz, bz]) t.deepEqual(comparable(await summarize(f, { samples: 0 })), comparable(plain), f)
  const cli = spawnSync(process.execPath, [BIN, 'summary', '--json', '--extras', '-s', '0', '-'], { input: readFileSync(synthetic), encoding: 'utf8', maxBuffer: 1 << 26 })
  t.is(cli.status, 0, cli.stderr)
  const { warcdex, samples: _, ...json } = JSON.parse(cli.stdout)
  t.deepEqual(json, withoutSamples(plain.summary))
  t.deepEqual(warcdex, plain.extras)
})

test('extras: exact counts in any order, then HyperLogLog above the limit', async (t) => {
  // Above the default exact limit (100,000 distinct values), so exact here.
  const unsorted = await summarize(synthetic, { samples: 0, exactLimit: 1_000_000 })
  const sorted = await summarize(sortedFile, { samples: 0, exactLimit: 1_000_000 })
  // Sorted, cdx-summary's consecutive counts are the exact ones.
  t.is(sorted.summary.urls, sorted.extras.uniqueUrls.count)
  t.is(sorted.summary.hosts, sorted.extras.uniqueHosts.count)
  t.is(unsorted.extras.uniqueUrls.count, sorted.extras.uniqueUrls.count)
  t.true(unsorted.extras.uniqueUrls.exact)
  const approx = await summarize(synthetic, { samples: 0, exactLimit: 1000 })
  t.false(approx.extras.uniqueUrls.exact)
  const err = Math.abs(approx.extras.uniqueUrls.count - sorted.extras.uniqueUrls.count) / sorted.extras.uniqueUrls.count
  t.true(err < 0.03, `HyperLogLog error ${err}`)
  const e = sorted.extras
  t.is(e.statusTop.reduce((a, [, n]) => a + n, 0) <= sorted.summary.captures, true)
  t.is(e.recordsPerFile.reduce((a, [, n]) => a + n, 0) > 0.9 * sorted.summary.captures, true)
  t.true(e.registeredDomains.count < e.uniqueHosts.count, 'www2 hosts share a registered domain')
  t.true(e.duplicatesByDigest.count > 0 && e.duplicatesByDigest.count < e.duplicatesByDigest.of)
  t.is(e.revisits, sorted.summary.mimestatus.Revisit.Other)
})

test('samples: OK HTML captures only, reproducible with a seed', async (t) => {
  const a = await summarize(sortedFile, { samples: 5, seed: 3 })
  const b = await summarize(sortedFile, { samples: 5, seed: 3 })
  t.is(a.summary.samples.length, 5)
  t.deepEqual(a.summary.samples, b.summary.samples)
  for (const [ts, url] of a.summary.samples) {
    t.regex(ts, /^\d{14}$/)
    t.false(url.includes(':80/'))
  }
})

test('text report: cdx-summary sections and labels, then the labelled extras', (t) => {
  const r = spawnSync(process.execPath, [BIN, 'summary', '-s', '3', '--seed', '1', sortedFile], { encoding: 'utf8' })
  t.is(r.status, 0, r.stderr)
  for (const s of ['CDX Overview', 'Total Captures in CDX', 'Consecutive Unique URLs', 'MIME Type and Status Code Distribution', 'Path and Query Segments', 'Year and Month Distribution', 'Top 10 Out of', 'OTHERS (', 'Random Sample of 3 OK HTML Mementos', 'Beyond cdx-summary'])
    t.true(r.stdout.includes(s), s)
  t.regex(r.stdout, /Total WARC Records Size\s+\d+\.\d [kMGT]B/)
  const usage = spawnSync(process.execPath, [BIN, 'summary', '--top', 'x', sortedFile], { encoding: 'utf8' })
  t.is(usage.status, 2)
})

function chromium() {
  for (const c of ['chromium', 'chromium-browser']) if (spawnSync(c, ['--version'], { encoding: 'utf8' }).status === 0) return c
  return undefined
}

test('the HTML report renders in headless Chromium without console errors; screenshots in __test__/out/', async (t) => {
  mkdirSync(OUT, { recursive: true })
  const result = await summarize([sortedFile], { samples: 10, seed: 2 })
  const html = renderSummaryHtml(result, { generated: new Date(0) })
  // Self-contained: nothing is loaded from anywhere.
  t.false(/<script|<link|\ssrc=|url\(|@import/i.test(html))
  const page = join(OUT, 'summary.html')
  writeFileSync(page, html)
  const browser = chromium()
  if (!browser) return t.pass('SKIPPED: no chromium (apt-get install chromium)')
  const profile = mkdtempSync(join(tmpdir(), 'warcdex-chromium-'))
  try {
    for (const [name, size] of [['summary-desktop.png', '1100,2600'], ['summary-phone.png', '390,3600']]) {
      const shot = join(OUT, name)
      rmSync(shot, { force: true })
      const r = spawnSync(browser, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', `--user-data-dir=${profile}`, '--enable-logging=stderr', '--v=0', '--hide-scrollbars', `--window-size=${size}`, `--screenshot=${shot}`, `file://${page}`], { encoding: 'utf8', timeout: 120_000 })
      const consoleLines = r.stderr.split('\n').filter((l) => /CONSOLE|Uncaught|Failed to load/i.test(l))
      t.deepEqual(consoleLines, [], 'no console messages')
      t.true(existsSync(shot) && statSync(shot).size > 10_000, `${name} written (${r.stderr.slice(-400)})`)
    }
    const dom = spawnSync(browser, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', `--user-data-dir=${profile}`, '--dump-dom', `file://${page}`], { encoding: 'utf8', timeout: 120_000 })
    t.is((dom.stdout.match(/<ol class="stack"[\s\S]*?<\/ol>/)?.[0].match(/<svg/g) ?? []).length, 13, 'a bar per MIME group')
    t.is((dom.stdout.match(/<table class="heat">/g) ?? []).length, 2)
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }
})
