// Page-dump segments (data_*.tar.xz + TSV manifests): the generator follows
// the format, and every command finds every planted quirk and bad input,
// naming segment and id.
import test from 'ava'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { buildDumpLookup, extractPage, extractPageInfo, generateDump, lookupDump, verifyDump } from '../dist/index.js'

import { base32 } from './helpers.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'warcdex.js')
const dir = mkdtempSync(join(tmpdir(), 'warcdex-dump-'))
test.after.always(() => rmSync(dir, { recursive: true, force: true }))
const run = (args) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: dir, maxBuffer: 1 << 28 })
const haveCdxjIndexer = spawnSync('cdxj-indexer', ['--help'], { encoding: 'utf8' }).status === 0
const xzTar = (file, ...args) => spawnSync('sh', ['-c', `xz -dc '${file}' | tar ${args.join(' ')}`], { maxBuffer: 1 << 28 })

const BAD = [
  'missing-header',
  'malformed-header',
  'page-not-in-manifest',
  'row-with-no-page',
  'id-out-of-range',
  'truncated-xz',
  'non-utf8',
  'non-html-entry',
  'manifest-header-differs',
]
// What verify calls each planted bad input.
const CODE = {
  'missing-header': 'header-missing',
  'malformed-header': 'header-malformed',
  'page-not-in-manifest': 'extra-page',
  'row-with-no-page': 'missing-page',
  'id-out-of-range': 'id-out-of-range',
  'truncated-xz': 'truncated',
  'non-utf8': 'not-utf8',
  'non-html-entry': 'not-html',
  'manifest-header-differs': 'manifest-header',
}

const md5 = (b) => createHash('md5').update(b).digest('hex')
const manifestRows = (file) => {
  const text = spawnSync('xz', ['-dc', file], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout
  return text.trim().split('\n').slice(1).map((l) => {
    const [id, timestamp, url, length, hash] = l.split('\t')
    return { id: Number(id), timestamp: Number(timestamp), url, length: Number(length), md5: hash }
  })
}

let clean // two clean segments, several xz blocks each, with md5/length failures
let bad // one segment per bad input
test.before(async () => {
  clean = await generateDump(join(dir, 'clean'), { segments: 2, idsPerSegment: 120, seed: 7, blockSize: 65536, threads: 1, badMd5Rate: 0.05, badLengthRate: 0.05 })
  bad = await generateDump(join(dir, 'bad'), {
    segments: BAD.length,
    idsPerSegment: 40,
    seed: 9,
    bad: BAD,
    badMd5Rate: 0.08,
    badLengthRate: 0.08,
  })
})

test('generated segments follow the format: manifest first, ${id}.html with a tab header line, \\n and \\r\\n, gaps, repeats going back in time', (t) => {
  const seg = clean.segments[0]
  const names = xzTar(seg.data, '-t').stdout.toString().trim().split('\n')
  t.is(names[0], basename(seg.manifest))
  t.true(names.slice(1).every((n) => /^\d+\.html$/.test(n)))
  // The first tar entry holds the same bytes as the manifest beside it.
  t.deepEqual(xzTar(seg.data, '-xO', basename(seg.manifest)).stdout, readFileSync(seg.manifest))
  const rows = manifestRows(seg.manifest)
  const ids = rows.map((r) => r.id)
  t.true(ids.some((id, i) => i > 0 && id > ids[i - 1] + 1), 'ids have gaps')
  t.true(ids.every((id, i) => i === 0 || id >= ids[i - 1]), 'ids do not decrease')
  const page = xzTar(seg.data, '-xO', `${rows[3].id}.html`).stdout
  const nl = page.indexOf(10)
  t.is(page.subarray(0, nl + 1).toString(), `<!-- ${rows[3].timestamp}\t${rows[3].url} -->\n`)
  t.is(page.length - nl - 1, rows[3].length)
  t.is(md5(page.subarray(nl + 1)), rows[3].md5)
  const crlf = seg.crlfIds[0]
  t.true(xzTar(seg.data, '-xO', `${crlf}.html`).stdout.includes('\r\n'))
  const lf = ids.find((id) => !seg.crlfIds.includes(id))
  t.false(xzTar(seg.data, '-xO', `${lf}.html`).stdout.includes('\r\n'))
  // A URL fetched again with an older timestamp than an earlier request.
  t.true(clean.repeated.some((r) => r.versions.some(([, ts], i) => i > 0 && ts < r.versions[i - 1][1])))
  // Master manifest: size and md5 of every file.
  const master = readFileSync(clean.master, 'utf8').trim().split('\n')
  t.is(master[0], 'file_name\ttype\trange_start\trange_end\tsize\tmd5')
  for (const line of master.slice(1)) {
    const [name, type, start, end, size, hash] = line.split('\t')
    const file = join(dir, 'clean', name)
    t.is(type, name.startsWith('data_') ? 'd' : 'm')
    t.is(Number(size), statSync(file).size)
    t.is(hash, md5(readFileSync(file)))
    t.true(Number(end) - Number(start) === 120)
  }
})

test('verify: md5 and length failures by segment and id, NDJSON, exit 1; master manifest checked', async (t) => {
  const r = run(['dump', 'verify', '--json', join(dir, 'clean')])
  t.is(r.status, 1)
  const problems = r.stdout.trim().split('\n').map((l) => JSON.parse(l))
  for (const seg of clean.segments) {
    const name = basename(seg.data)
    const of = (code) => problems.filter((p) => p.segment === name && p.code === code).map((p) => p.id).sort((a, b) => a - b)
    t.deepEqual(of('length-mismatch'), [...seg.badLengthIds].sort((a, b) => a - b))
    // A shorter page fails both checks; a changed byte only the md5.
    t.deepEqual(of('md5-mismatch'), [...seg.badMd5Ids, ...seg.badLengthIds].sort((a, b) => a - b))
  }
  t.true(clean.segments.some((s) => s.badMd5Ids.length + s.badLengthIds.length > 0))
  t.false(problems.some((p) => p.code.startsWith('file-')))
  // Through the master manifest: a changed file and a missing one.
  const master = await generateDump(join(dir, 'master'), { segments: 2, idsPerSegment: 20, seed: 3 })
  const v = await verifyDump([master.master])
  t.deepEqual([v.files, v.problems, v.pages], [4, 0, v.verified])
  appendFileSync(master.segments[0].manifest, 'x')
  unlinkSync(master.segments[1].data)
  const seen = []
  await verifyDump([master.master], { onProblem: (p) => seen.push(`${p.segment} ${p.code}`) })
  t.deepEqual(seen.sort(), [
    `${basename(master.segments[0].manifest)} file-md5`,
    `${basename(master.segments[0].manifest)} file-size`,
    `${basename(master.segments[1].data)} file-missing`,
  ].sort())
})

test('verify: every bad input is reported with its segment and id, and the other segments are still checked', async (t) => {
  const problems = []
  const s = await verifyDump([join(dir, 'bad')], { onProblem: (p) => problems.push(p) })
  for (const seg of bad.segments) {
    const name = basename(seg.data)
    for (const { bad: what, id } of seg.planted) {
      const hit = problems.find((p) => p.segment === name && p.code === CODE[what] && (id === null || what === 'truncated-xz' || p.id === id))
      t.truthy(hit, `${what} in ${name} at ${id}`)
    }
  }
  t.is(new Set(problems.map((p) => p.segment)).size, BAD.length)
  t.true(s.verified > 0)
  // The line form: SEGMENT ID CODE: message.
  const r = run(['dump', 'verify', join(dir, 'bad')])
  t.is(r.status, 1)
  const seg = bad.segments.find((x) => x.planted.some((p) => p.bad === 'missing-header'))
  const id = seg.planted.find((p) => p.bad === 'missing-header').id
  t.regex(r.stdout, new RegExp(`^${basename(seg.data)} ${id} header-missing: `, 'm'))
})

test('index: one capture per page (SURT, timestamp, SHA-1 Base32, length, text/html, segment + id); failing pages indexed and flagged', (t) => {
  const seg = bad.segments.find((x) => x.planted.some((p) => p.bad === 'non-utf8'))
  const r = run(['index', '-f', 'ndjson', seg.data])
  t.is(r.status, 1)
  const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l))
  t.is(rows.length, seg.pages)
  const manifest = new Map(manifestRows(seg.manifest).map((m) => [m.id, m]))
  const flaggedId = seg.planted.find((p) => p.bad === 'non-utf8').id
  for (const row of rows) {
    t.is(row.filename, basename(seg.data))
    t.is(row.mime, 'text/html')
    const m = manifest.get(row.offset)
    if (!m) continue
    t.is(row.url, m.url)
    t.is(row.timestamp, new Date(m.timestamp * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14))
    const page = xzTar(seg.data, '-xO', `${row.offset}.html`).stdout
    const body = page.subarray(page.indexOf(10) + 1)
    t.is(row.digest, `sha1:${base32(createHash('sha1').update(body).digest())}`)
    t.is(row.length, body.length)
    t.is(row.recordType, row.offset === flaggedId || seg.badMd5Ids.includes(row.offset) || seg.badLengthIds.includes(row.offset) ? 'dump-page-unverified' : 'dump-page')
  }
  t.regex(r.stderr, new RegExp(`${basename(seg.data)}: id ${flaggedId}: not-utf8`))
  // Several threads: segments go through the serial reader, same rows.
  t.is(run(['index', '-q', '-j', '2', '-f', 'ndjson', seg.data]).stdout, r.stdout)
  // cdxj: SURT key and the locator.
  const c = run(['index', '-q', seg.data]).stdout.split('\n')[0]
  t.regex(c, /^[a-z0-9,-]+\)\/\S* \d{14} \{"url": .*"mime": "text\/html", "digest": "sha1:[A-Z2-7]{32}", "length": "\d+", "offset": "\d+", "filename": "data_/)
})

test('index: each bad input is reported with segment and id, and indexing goes on', (t) => {
  const r = run(['index', join(dir, 'bad')])
  t.is(r.status, 1)
  for (const seg of bad.segments) {
    for (const { bad: what, id } of seg.planted) {
      const want = id === null || what === 'truncated-xz' ? `${basename(seg.data)}: ` : `${basename(seg.data)}: id ${id}: ${CODE[what]}`
      t.true(r.stderr.includes(want) && r.stderr.includes(CODE[what]), `${what} ${id}`)
    }
  }
  t.is(new Set(r.stdout.trim().split('\n').map((l) => l.match(/"filename": "([^"]+)"/)[1])).size, BAD.length)
})

test('parquet: a segment becomes one cc-index-table row per page, with the fields warcdex index gives it', (t) => {
  const seg = bad.segments.find((x) => x.planted.some((p) => p.bad === 'non-utf8'))
  const rows = run(['index', '-q', '-f', 'ndjson', seg.data]).stdout.trim().split('\n').map((l) => JSON.parse(l))
  const out = join(dir, 'segment-dataset')
  const r = run(['parquet', '--crawl', 'DUMP', seg.data, out])
  t.is(r.status, 0, r.stderr)
  t.regex(r.stderr, /not-utf8/, 'problems are reported as for index')
  const sql = 'SELECT url, url_surtkey, warc_filename, warc_record_offset, warc_record_length, content_digest, content_mime_type, crawl, subset FROM ccindex ORDER BY warc_record_offset'
  const q = run(['query', out, sql, '-f', 'json'])
  t.is(q.status, 0, q.stderr)
  const got = q.stdout.trim().split('\n').map((l) => JSON.parse(l))
  t.is(got.length, seg.pages)
  t.is(got.length, rows.length)
  const byId = new Map(rows.map((x) => [x.offset, x]))
  for (const g of got) {
    const want = byId.get(Number(g.warc_record_offset))
    t.truthy(want, `id ${g.warc_record_offset}`)
    t.deepEqual(
      [g.url, g.url_surtkey, g.warc_filename, Number(g.warc_record_length), g.content_digest, g.content_mime_type, g.crawl, g.subset],
      [want.url, want.urlkey, basename(seg.data), want.length, want.digest, 'text/html', 'DUMP', 'warc'],
    )
  }
})

test('lookup: every version latest first (timestamp, then id), from manifests and from the table alike', async (t) => {
  const manifests = join(dir, 'clean')
  const repeated = clean.repeated.slice(0, 20)
  t.true(repeated.length > 3)
  const table = join(dir, 'clean.wdxl')
  const built = await buildDumpLookup([manifests], table)
  t.is(built.rows, clean.segments.reduce((a, s) => a + s.rows, 0))
  const scanned = await lookupDump(repeated.map((r) => r.url), { manifests })
  const tabled = await lookupDump(repeated.map((r) => r.url), { table })
  for (const [i, r] of repeated.entries()) {
    const want = [...r.versions].sort((a, b) => b[1] - a[1] || b[0] - a[0]).map(([id]) => id)
    t.deepEqual(scanned[i].versions.map((v) => v.id), want, r.url)
    t.deepEqual(tabled[i].versions, scanned[i].versions)
  }
  // The CLI: lines `segment id timestamp url`, NDJSON, exit 1 when not found.
  const r = run(['dump', 'lookup', repeated[0].url, '--manifests', manifests])
  const first = scanned[0].versions[0]
  t.is(r.stdout.split('\n')[0], `${first.segment} ${first.id} ${first.timestamp} ${first.url}`)
  t.is(r.stdout.trim().split('\n').length, repeated[0].versions.length)
  t.deepEqual(JSON.parse(run(['dump', 'lookup', '--json', repeated[0].url, '--table', table]).stdout.split('\n')[0]), first)
  t.is(run(['dump', 'lookup', 'http://nowhere.example/', '--manifests', manifests]).status, 1)
  // build-lookup writes the default table, which lookup then uses.
  t.is(run(['dump', 'build-lookup', '-q', manifests]).status, 0)
  t.is(run(['dump', 'lookup', repeated[0].url, '--manifests', manifests]).stdout, r.stdout)
})

test('lookup and build-lookup report a differing manifest header and bad rows with the manifest name', (t) => {
  const seg = bad.segments.find((x) => x.planted.some((p) => p.bad === 'manifest-header-differs'))
  const r = run(['dump', 'build-lookup', seg.manifest, '-o', join(dir, 'one.wdxl')])
  t.is(r.status, 1)
  t.regex(r.stderr, new RegExp(`${basename(seg.manifest)} - manifest-header: `))
  const url = manifestRows(seg.manifest)[2].url
  const l = run(['dump', 'lookup', url, '--manifests', join(dir, 'bad')])
  t.is(l.status, 0)
  t.regex(l.stderr, /manifest-header/)
  t.regex(l.stdout, new RegExp(`^${basename(seg.data)} \\d+ \\d+ `))
})

test('extract: the page, from the right xz block, without decoding the rest', async (t) => {
  const seg = clean.segments[1]
  const rows = manifestRows(seg.manifest).filter((r) => !seg.badMd5Ids.includes(r.id) && !seg.badLengthIds.includes(r.id))
  const late = rows[rows.length - 2]
  const info = await extractPageInfo(seg.data, late.id)
  t.true(info.blocks > 3, `blocks: ${info.blocks}`)
  t.true(info.startBlock > 0)
  t.true(info.decodedBytes < seg.uncompressedBytes / 2)
  for (const row of [rows[0], rows[Math.floor(rows.length / 2)], late]) {
    const body = await extractPage(seg.data, row.id, { bodyOnly: true })
    t.is(md5(body), row.md5, `page ${row.id}`)
    const whole = run(['dump', 'extract', seg.data, String(row.id)])
    t.true(whole.stdout.startsWith(`<!-- ${row.timestamp}\t${row.url} -->\n`))
  }
  // One block: decoding stops once the page is out.
  const one = bad.segments.find((x) => x.planted.some((p) => p.bad === 'missing-header'))
  const early = manifestRows(one.manifest)[1]
  const i1 = await extractPageInfo(one.data, early.id)
  t.is(i1.blocks, 1)
  t.true(i1.decodedBytes < one.uncompressedBytes / 4)
  t.is(run(['dump', 'extract', one.data, '99999']).status, 1)
  t.is(run(['dump', 'extract', one.data]).status, 2)
})

test('extract: bad inputs — a page without header line, a non-UTF-8 page, past the cut of a truncated segment', async (t) => {
  const find = (what) => {
    const seg = bad.segments.find((x) => x.planted.some((p) => p.bad === what))
    return [seg, seg.planted.find((p) => p.bad === what).id]
  }
  const [s1, noHeader] = find('missing-header')
  const row = manifestRows(s1.manifest).find((r) => r.id === noHeader)
  t.is(md5(await extractPage(s1.data, noHeader)), row.md5)
  const [s2, nonUtf8] = find('non-utf8')
  t.true((await extractPage(s2.data, nonUtf8, { bodyOnly: true })).includes(Buffer.from([0xff, 0xfe])))
  const [s3] = find('truncated-xz')
  const last = manifestRows(s3.manifest).at(-1)
  const r = run(['dump', 'extract', s3.data, String(last.id)])
  t.is(r.status, 1)
  t.regex(r.stderr, new RegExp(basename(s3.data)))
})

test('to-warc: WARC 1.1 resource records that cdxj-indexer and warcdex index identically, digests verify, dump headers kept', (t) => {
  const out = join(dir, 'clean.warc.gz')
  const r = run(['dump', 'to-warc', ...clean.segments.map((s) => s.data), '-o', out])
  t.is(r.status, 1) // the md5/length failures are reported
  for (const id of clean.segments[0].badMd5Ids) t.regex(r.stderr, new RegExp(`${basename(clean.segments[0].data)} ${id} md5-mismatch`))
  const text = spawnSync('sh', ['-c', `zcat '${out}'`], { encoding: 'latin1', maxBuffer: 1 << 28 }).stdout
  const pages = clean.segments.reduce((a, s) => a + s.pages, 0)
  t.is(text.split('WARC-Type: resource\r\n').length - 1, pages)
  t.is(text.split('WARC-Type: warcinfo\r\n').length - 1, 1)
  t.regex(text, /^WARC\/1\.1\r\n/)
  const seg = clean.segments[0]
  const row = manifestRows(seg.manifest)[0]
  t.true(text.includes(`WARC-Target-URI: ${row.url}\r\n`))
  t.true(text.includes(`WARC-Date: ${new Date(row.timestamp * 1000).toISOString().replace('.000', '')}\r\n`))
  t.true(text.includes(`WARC-Dump-Id: ${row.id}\r\nWARC-Dump-MD5: ${row.md5}\r\n`))
  const verify = run(['index', '--verify', '-q', out])
  t.is(verify.status, 0, verify.stderr)
  const ours = run(['index', '-q', out]).stdout
  t.is(ours.trim().split('\n').length, pages)
  if (!haveCdxjIndexer) {
    t.log('SKIPPED: cdxj-indexer is not installed (pip install cdxj-indexer==1.5.0)')
    return
  }
  const theirs = spawnSync('cdxj-indexer', [out], { encoding: 'utf8', maxBuffer: 1 << 28 })
  t.is(theirs.status, 0)
  t.is(ours, theirs.stdout)
})

test('to-warc: bad inputs are reported with segment and id and the other pages converted', (t) => {
  const out = join(dir, 'bad.warc.gz')
  const r = run(['dump', 'to-warc', '--json', ...bad.segments.map((s) => s.data), '-o', out])
  t.is(r.status, 1)
  const problems = r.stderr.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l))
  for (const seg of bad.segments) {
    for (const { bad: what, id } of seg.planted) {
      t.truthy(problems.find((p) => p.segment === basename(seg.data) && p.code === CODE[what] && (id === null || what === 'truncated-xz' || p.id === id)), what)
    }
  }
  t.is(run(['index', '--verify', '-q', out]).status, 0)
  const rows = run(['index', '-q', out]).stdout.trim().split('\n')
  t.true(rows.length > bad.segments.reduce((a, s) => a + s.pages, 0) - 40)
})

test('usage errors exit 2; dump --help lists the commands', (t) => {
  t.is(run(['dump']).status, 2)
  t.is(run(['dump', 'frob']).status, 2)
  t.is(run(['dump', 'verify']).status, 2)
  t.is(run(['dump', 'lookup', 'http://a/']).status, 2)
  t.is(run(['dump', 'to-warc', 'x.tar.xz']).status, 2)
  const h = run(['dump', '--help'])
  t.is(h.status, 0)
  for (const c of ['verify', 'lookup', 'build-lookup', 'extract', 'to-warc']) t.true(h.stdout.includes(`  ${c} `))
})
