// warcdex parquet / query: the cc-index-table schema read back by two
// independent readers (DuckDB and hyparquet), column values on real and
// hand-picked inputs, layout (sorting, file bounds, spills, codecs, bloom
// filters), and the spec's example queries against aggregations computed here.
import test from 'ava'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'

import { DuckDBInstance } from '@duckdb/node-api'
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

import { generateSample, writeIndex, writeParquet } from '../dist/index.js'

const run = promisify(execFile)
const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const cli = join(root, 'bin', 'warcdex.js')
const corpus = join(root, '..', 'shared', 'corpus')
const tmp = mkdtempSync(join(tmpdir(), 'warcdex-parquet-'))
test.after.always(() => rmSync(tmp, { recursive: true, force: true }))

let n = 0
const fresh = (name) => join(tmp, `${name}-${n++}`)

function parquetFiles(dir) {
  const out = []
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(...parquetFiles(p))
    else if (e.name.endsWith('.parquet')) out.push(p)
  }
  return out.sort()
}

async function readRows(file) {
  const buf = await asyncBufferFromFile(file)
  return parquetReadObjects({ file: buf, compressors, utf8: true })
}

async function duck(sql) {
  const db = await DuckDBInstance.create(':memory:')
  const conn = await db.connect()
  try {
    const r = await conn.runAndReadAll(sql)
    return r.getRowObjectsJson()
  } finally {
    conn.closeSync()
  }
}

async function convert(lines, options = {}) {
  const src = fresh('in') + '.cdxj'
  writeFileSync(src, lines.join('\n') + '\n')
  const out = fresh('ds')
  const summary = await writeParquet([src], out, { onProblem: () => {}, ...options })
  return { out, summary, files: parquetFiles(out) }
}

// --- the spec's rows ---------------------------------------------------------

const CC_FAQ = `org,commoncrawl)/faq 20220127163355 {"url": "https://commoncrawl.org/faq/", "mime": "text/html", "mime-detected": "text/html", "status": "301", "digest": "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", "length": "958", "offset": "6946714", "filename": "crawl-data/CC-MAIN-2022-05/segments/1642320305277.88/crawldiagnostics/CC-MAIN-20220127163150-20220127193150-00502.warc.gz", "redirect": "/big-picture/frequently-asked-questions/"}`
const AN_WIKIPEDIA = `org,wikipedia,an)/wiki/escopete 20240518015810 {"url": "https://an.wikipedia.org/wiki/Escopete", "mime": "text/html", "mime-detected": "text/html", "status": "200", "digest": "RY7PLBUFQNI2FFV5FTUQK72W6SNPXLQU", "length": "17423", "offset": "80610731", "filename": "crawl-data/CC-MAIN-2024-22/segments/1715971057216.39/warc/CC-MAIN-20240517233122-20240518023122-00000.warc.gz", "charset": "UTF-8", "languages": "spa"}`

// The flat schema of the spec (A1), with offset/length as INT64; crawl and
// subset are partition columns, not stored.
const SPEC_SCHEMA = [
  ['url_surtkey', 'string', false], ['url', 'string', false], ['url_host_name', 'string', false],
  ['url_host_tld', 'string', true], ['url_host_2nd_last_part', 'string', true], ['url_host_3rd_last_part', 'string', true],
  ['url_host_4th_last_part', 'string', true], ['url_host_5th_last_part', 'string', true],
  ['url_host_registry_suffix', 'string', true], ['url_host_registered_domain', 'string', true],
  ['url_host_private_suffix', 'string', true], ['url_host_private_domain', 'string', true],
  ['url_host_name_reversed', 'string', true], ['url_protocol', 'string', false], ['url_port', 'int32', true],
  ['url_path', 'string', false], ['url_query', 'string', true], ['fetch_time', 'timestamp', false],
  ['fetch_status', 'int16', false], ['fetch_redirect', 'string', true], ['content_digest', 'string', true],
  ['content_mime_type', 'string', true], ['content_mime_detected', 'string', true], ['content_charset', 'string', true],
  ['content_languages', 'string', true], ['content_truncated', 'string', true], ['warc_filename', 'string', false],
  ['warc_record_offset', 'int64', false], ['warc_record_length', 'int64', false], ['warc_segment', 'string', false],
]

test('schema: names, order, physical and logical types and nullability, read by hyparquet and DuckDB', async (t) => {
  const { files } = await convert([CC_FAQ, AN_WIKIPEDIA])
  t.is(files.length, 2, 'one file per partition')
  const meta = await parquetMetadataAsync(await asyncBufferFromFile(files[0]))
  const leaves = meta.schema.slice(1)
  t.deepEqual(leaves.map((c) => c.name), SPEC_SCHEMA.map((c) => c[0]))
  for (const [i, [name, kind, nullable]] of SPEC_SCHEMA.entries()) {
    const el = leaves[i]
    t.is(el.repetition_type, nullable ? 'OPTIONAL' : 'REQUIRED', `${name} nullability`)
    if (kind === 'string') {
      t.is(el.type, 'BYTE_ARRAY', name)
      t.is(el.logical_type?.type ?? el.converted_type, el.logical_type ? 'STRING' : 'UTF8', name)
    } else if (kind === 'int16') {
      t.is(el.type, 'INT32', name)
      t.deepEqual([el.logical_type?.type, el.logical_type?.bitWidth, el.logical_type?.isSigned], ['INTEGER', 16, true], name)
    } else if (kind === 'int32') {
      t.is(el.type, 'INT32', name)
      t.true(el.logical_type === undefined || el.logical_type.bitWidth === 32, name)
    } else if (kind === 'int64') {
      t.is(el.type, 'INT64', name)
    } else {
      t.is(el.type, 'INT64', name)
      t.deepEqual([el.logical_type?.type, el.logical_type?.unit, el.logical_type?.isAdjustedToUTC], ['TIMESTAMP', 'MILLIS', true])
    }
  }
  // DuckDB's own reading of the same file.
  const d = await duck(`SELECT name, type, repetition_type, converted_type, logical_type FROM parquet_schema('${files[0]}') WHERE name <> 'arrow_schema' AND name <> 'schema'`)
  t.deepEqual(d.map((r) => r.name), SPEC_SCHEMA.map((c) => c[0]))
  const byName = Object.fromEntries(d.map((r) => [r.name, r]))
  t.is(byName.fetch_status.type, 'INT32')
  t.is(byName.fetch_status.converted_type, 'INT_16')
  t.regex(byName.fetch_time.logical_type, /TimestampType\(isAdjustedToUTC=1, unit=TimeUnit\(MILLIS/)
  t.is(byName.warc_record_offset.type, 'INT64')
  t.is(byName.url_port.type, 'INT32')
  const types = await duck(`DESCRIBE SELECT * FROM read_parquet('${files[0]}')`)
  t.is(types.find((r) => r.column_name === 'fetch_time').column_type, 'TIMESTAMP WITH TIME ZONE')
  t.is(types.find((r) => r.column_name === 'fetch_status').column_type, 'SMALLINT')
})

const PRODUCTION_ROW = {
  url_surtkey: 'org,wikipedia,an)/wiki/escopete', url: 'https://an.wikipedia.org/wiki/Escopete', url_host_name: 'an.wikipedia.org',
  url_host_tld: 'org', url_host_2nd_last_part: 'wikipedia', url_host_3rd_last_part: 'an', url_host_4th_last_part: null,
  url_host_5th_last_part: null, url_host_registry_suffix: 'org', url_host_registered_domain: 'wikipedia.org',
  url_host_private_suffix: 'org', url_host_private_domain: 'wikipedia.org', url_host_name_reversed: 'org.wikipedia.an',
  url_protocol: 'https', url_port: null, url_path: '/wiki/Escopete', url_query: null, fetch_status: 200, fetch_redirect: null,
  content_digest: 'RY7PLBUFQNI2FFV5FTUQK72W6SNPXLQU', content_mime_type: 'text/html', content_mime_detected: 'text/html',
  content_charset: 'UTF-8', content_languages: 'spa', content_truncated: null,
  warc_filename: 'crawl-data/CC-MAIN-2024-22/segments/1715971057216.39/warc/CC-MAIN-20240517233122-20240518023122-00000.warc.gz',
  warc_record_offset: 80610731n, warc_record_length: 17423n, warc_segment: '1715971057216.39',
}

test('values: the production row (an.wikipedia.org) and the cc-index-table fixture, column by column', async (t) => {
  const { out, files } = await convert([AN_WIKIPEDIA, CC_FAQ])
  t.deepEqual(files.map((f) => relative(out, dirname(f))), [
    'crawl=CC-MAIN-2022-05/subset=crawldiagnostics',
    'crawl=CC-MAIN-2024-22/subset=warc',
  ])
  const [wiki] = await readRows(files[1])
  const { fetch_time: time, ...rest } = wiki
  t.deepEqual(rest, PRODUCTION_ROW)
  t.is(new Date(Number(time)).toISOString(), '2024-05-18T01:58:10.000Z')
  const [faq] = await readRows(files[0])
  t.like(faq, {
    url_host_name: 'commoncrawl.org', url_host_tld: 'org', url_host_2nd_last_part: 'commoncrawl', url_host_3rd_last_part: null,
    url_host_registry_suffix: 'org', url_host_registered_domain: 'commoncrawl.org', url_host_private_suffix: 'org',
    url_host_private_domain: 'commoncrawl.org', url_host_name_reversed: 'org.commoncrawl', url_protocol: 'https', url_port: null,
    url_path: '/faq/', url_query: null, fetch_status: 301, fetch_redirect: '/big-picture/frequently-asked-questions/',
    warc_segment: '1642320305277.88', warc_record_offset: 6946714n, warc_record_length: 958n, content_mime_detected: 'text/html',
  })
  // DuckDB agrees, with the partition columns from the path.
  const d = await duck(`SELECT crawl, subset, url_host_registered_domain AS d, fetch_time::VARCHAR AS t FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true) ORDER BY crawl`)
  t.deepEqual(d, [
    { crawl: 'CC-MAIN-2022-05', subset: 'crawldiagnostics', d: 'commoncrawl.org', t: d[0].t },
    { crawl: 'CC-MAIN-2024-22', subset: 'warc', d: 'wikipedia.org', t: d[1].t },
  ])
  t.regex(d[1].t, /^2024-05-18 01:58:10(\+00)?/)
})

test('values: the Common Crawl sample lines of the corpus (CC, EOT with a length over 2^31, cdxj-indexer style)', async (t) => {
  const f = join(corpus, 'commoncrawl+cc-index-table', '_expected', 'cc-cdxj-format-samples.cdxj')
  if (!existsSync(f)) {
    t.log(`SKIPPED: ${f} is absent (the shared corpus is not beside this checkout)`)
    t.pass()
    return
  }
  const out = fresh('cc')
  await writeParquet([f], out)
  const rows = (await Promise.all(parquetFiles(out).map(readRows))).flat()
  const byUrl = Object.fromEntries(rows.map((r) => [r.url, r]))
  const eot = byUrl['http://129.120.92.64/disk1/brac.tar']
  t.like(eot, { url_host_name: '129.120.92.64', url_host_tld: null, url_host_name_reversed: null, url_host_registered_domain: null, warc_segment: 'UNT-000' })
  t.is(eot.warc_record_length, 20984044039n, 'INT64 keeps lengths over 2 GiB')
  t.like(byUrl['https://www.example.org/'], { url_host_registered_domain: 'example.org', url_host_3rd_last_part: 'www', warc_segment: '', content_digest: '3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ' })
  t.deepEqual(parquetFiles(out).map((p) => relative(out, dirname(p))), [
    'crawl=CC-MAIN-2022-05/subset=crawldiagnostics', 'crawl=EOT-2008/subset=warc', 'crawl=unknown/subset=warc',
  ])
})

// Hand-picked hosts: [url, expected columns]
const HOSTS = [
  ['http://münchen.de/', { url_host_name: 'xn--mnchen-3ya.de', url_host_tld: 'de', url_host_registered_domain: 'xn--mnchen-3ya.de', url_host_name_reversed: 'de.xn--mnchen-3ya' }],
  ['http://www.exæmple.com/', { url_host_name: 'www.xn--exmple-qua.com', url_host_registered_domain: 'xn--exmple-qua.com' }],
  ['http://www.🧠.com/', { url_host_name: 'www.xn--qv9h.com' }],
  ['http://www.example.%d0%a0%d0%a4/', { url_host_name: 'www.example.xn--p1ai', url_host_tld: 'xn--p1ai', url_host_registry_suffix: 'xn--p1ai', url_host_registered_domain: 'example.xn--p1ai' }],
  ['http://www.example%2ecom/', { url_host_name: 'www.example.com', url_host_registered_domain: 'example.com' }],
  ['http://123.123.123.123/', { url_host_name: '123.123.123.123', url_host_tld: null, url_host_2nd_last_part: null, url_host_registry_suffix: null, url_host_name_reversed: null }],
  ['http://2071690107/', { url_host_name: '123.123.123.123', url_host_tld: null, url_host_name_reversed: null }],
  ['http://123.8092539/', { url_host_name: '123.123.123.123', url_host_tld: null }],
  ['http://123.123.31611/', { url_host_name: '123.123.123.123', url_host_tld: null }],
  ['http://[2001:DB8::1]:8080/x', { url_host_name: '[2001:db8::1]', url_port: 8080, url_host_tld: null, url_host_registered_domain: null, url_host_name_reversed: null }],
  ['http://www.example.com:80/', { url_port: 80, url_host_name: 'www.example.com' }],
  ['https://www.example.com:8443/a?b=c#frag', { url_port: 8443, url_path: '/a', url_query: 'b=c' }],
  ['http://www.example.com./x?', { url_host_name: 'www.example.com', url_host_tld: 'com', url_query: '', url_port: null }],
  ['http://myblog.blogspot.com/', { url_host_registry_suffix: 'com', url_host_registered_domain: 'blogspot.com', url_host_private_suffix: 'blogspot.com', url_host_private_domain: 'myblog.blogspot.com' }],
  ['https://mypublicbucket.s3.amazonaws.com/k', { url_host_registry_suffix: 'com', url_host_registered_domain: 'amazonaws.com', url_host_private_suffix: 's3.amazonaws.com', url_host_private_domain: 'mypublicbucket.s3.amazonaws.com' }],
  ['http://www.example.invalid/', { url_host_tld: 'invalid', url_host_2nd_last_part: 'example', url_host_registry_suffix: null, url_host_registered_domain: null, url_host_private_suffix: null, url_host_private_domain: null }],
  ['http://localhost:3000/', { url_host_name: 'localhost', url_host_tld: 'localhost', url_host_registry_suffix: null, url_port: 3000 }],
  ['http://co.uk/', { url_host_tld: 'uk', url_host_registry_suffix: 'co.uk', url_host_registered_domain: null, url_host_private_suffix: 'co.uk', url_host_private_domain: null }],
  ['http://news.bbc.co.uk/', { url_host_registry_suffix: 'co.uk', url_host_registered_domain: 'bbc.co.uk', url_host_3rd_last_part: 'bbc', url_host_4th_last_part: 'news', url_host_5th_last_part: null }],
  ['http://lions.nakahara.kawasaki.jp/', { url_host_registry_suffix: 'nakahara.kawasaki.jp', url_host_registered_domain: 'lions.nakahara.kawasaki.jp' }],
  ['http://a.b.c.d.e.f.example.org/', { url_host_5th_last_part: 'd', url_host_name_reversed: 'org.example.f.e.d.c.b.a' }],
  ['https:////www.google.com/robots.txt', { url_host_name: 'www.google.com', url_path: '/robots.txt' }],
  ['https://www.example.com/path with space', { url_path: '/path with space', url_query: null }],
  ['dns:forum.Example.io', { url_protocol: 'dns', url_host_name: 'forum.example.io', url_host_registered_domain: 'example.io', url_path: '' }],
  ['whois://whois.iana.org/example.com', { url_protocol: 'whois', url_host_name: 'example.com' }],
]

test('values: hand-picked hosts (IDN, numeric IPv4, IPv6, ports, trailing dots, private suffixes, unlisted TLDs, co.uk)', async (t) => {
  const lines = HOSTS.map(([url], i) => `x)/${i} 20200101000000 ${JSON.stringify({ url, status: '200', offset: String(i), length: '1', filename: 'f.warc.gz' })}`)
  const { files } = await convert(lines, { crawl: 'HOSTS', partitionBy: [] })
  t.is(files.length, 1)
  const rows = await readRows(files[0])
  const byOffset = new Map(rows.map((r) => [Number(r.warc_record_offset), r]))
  for (const [i, [url, want]] of HOSTS.entries()) t.like(byOffset.get(i), want, url)
})

// --- real inputs: every CDX/CDXJ of the shared corpus --------------------------

function findIndexes(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) findIndexes(p, out)
    else if (/\.cdxj?(\.gz)?$/i.test(e.name)) out.push(p)
  }
  return out
}

/** The rows an index file should give, parsed here independently. */
function expectedRows(text) {
  const rows = []
  let nine = false
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '')
    if (!line || line.startsWith('!meta') || line.startsWith('#')) continue
    if (line.startsWith(' CDX') || line.startsWith('CDX ')) {
      nine = line.trim().split(/\s+/).length === 10
      continue
    }
    const [key, ts, ...rest] = line.split(' ')
    if (!/^\d{4,14}$/.test(ts ?? '')) continue
    const tail = rest.join(' ')
    if (tail.startsWith('{')) {
      let j
      try {
        j = JSON.parse(tail)
      } catch {
        continue
      }
      rows.push({ key, url: j.url ?? '', status: /^\d+$/.test(j.status ?? '') ? Number(j.status) : -1, offset: j.offset === undefined ? -1 : Number(j.offset), filename: j.filename ?? '' })
    } else if (rest.length === 9 || rest.length === 7) {
      const d = (v) => (v === '-' ? undefined : v)
      const f = rest
      const off = rest.length === 9 && !nine ? f[7] : f[5]
      rows.push({ key, url: d(f[0]) ?? '', status: /^\d+$/.test(f[2]) ? Number(f[2]) : -1, offset: d(off) === undefined ? -1 : Number(off), filename: d(f[rest.length - 1]) ?? '' })
    }
  }
  return rows
}

test('values: every CDX/CDXJ index of the shared corpus converts, row for row, sorted by url_surtkey', async (t) => {
  if (!existsSync(corpus)) {
    t.log(`SKIPPED: ${corpus} is absent (the shared corpus is not beside this checkout)`)
    t.pass()
    return
  }
  const indexes = findIndexes(corpus)
  t.true(indexes.length >= 20, `found ${indexes.length} indexes`)
  const { gunzipSync } = await import('node:zlib')
  let total = 0
  for (const f of indexes) {
    const bytes = readFileSync(f)
    const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8')
    const want = expectedRows(text)
    const out = fresh('corpus')
    const s = await writeParquet([f], out, { crawl: 'CORPUS', onProblem: () => {} })
    t.is(s.rows, want.length, `${relative(corpus, f)}: row count`)
    const got = []
    for (const p of parquetFiles(out)) {
      const rows = await readRows(p)
      const keys = rows.map((r) => r.url_surtkey)
      t.deepEqual(keys, [...keys].sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b)))), `${p}: sorted`)
      const subset = /subset=([^/]+)/.exec(p)[1]
      for (const r of rows) {
        got.push({ key: r.url_surtkey, url: r.url, status: r.fetch_status, offset: Number(r.warc_record_offset), filename: r.warc_filename })
        if (r.url_path.toLowerCase() === '/robots.txt' && !r.warc_filename.startsWith('crawl-data/')) t.is(subset, 'robotstxt', r.url)
        else if (r.fetch_status >= 300 && r.content_mime_type !== 'warc/revisit' && !r.warc_filename.startsWith('crawl-data/')) t.is(subset, 'crawldiagnostics', r.url)
      }
    }
    const order = (a, b) => (a.key + a.url + a.offset < b.key + b.url + b.offset ? -1 : 1)
    t.deepEqual(got.sort(order), want.sort(order), relative(corpus, f))
    total += want.length
  }
  t.log(`${indexes.length} corpus indexes, ${total} rows`)
})

// --- inputs, layout, bounded memory ------------------------------------------

test('WARC input is indexed and converted in one pass: captures by default, the rows of warcdex index with --records index', async (t) => {
  const dir = fresh('warcs')
  await generateSample(dir, { files: 1, targetBytes: 2_000_000, seed: 7 })
  const cdxj = fresh('index') + '.cdxj'
  await writeIndex(dir, { output: cdxj })
  const fromWarc = fresh('dsw')
  const fromIndex = fresh('dsi')
  const a = await writeParquet([dir], fromWarc, { crawl: 'S', records: 'index' })
  const b = await writeParquet([cdxj], fromIndex, { crawl: 'S' })
  t.true(a.rows > 50, `${a.rows} rows`)
  t.is(a.rows, b.rows)
  const q = (d) => duck(`SELECT * EXCLUDE (warc_filename) FROM read_parquet('${d}/**/*.parquet', hive_partitioning = true) ORDER BY url_surtkey, fetch_time, warc_record_offset`)
  t.deepEqual(await q(fromWarc), await q(fromIndex))

  // By default the rows are captures, as Common Crawl's tables hold them:
  // response, revisit and resource records of http(s)/ftp URLs.
  const ndjson = fresh('index') + '.ndjson'
  await writeIndex(dir, { output: ndjson, format: 'ndjson', records: 'all' })
  const all = readFileSync(ndjson, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  const captures = all.filter((r) => ['response', 'revisit', 'resource'].includes(r.recordType) && /^(https?|ftp):/i.test(r.url ?? ''))
  t.true(all.some((r) => (r.url ?? '').startsWith('dns:')) && all.some((r) => r.recordType === 'metadata'), 'the sample has dns: and metadata records')
  const fromCaptures = fresh('dsc')
  const c = await writeParquet([dir], fromCaptures, { crawl: 'S' })
  t.is(c.rows, captures.length)
  const got = await duck(`SELECT url, warc_record_offset::BIGINT AS o FROM read_parquet('${fromCaptures}/**/*.parquet') ORDER BY o`)
  t.deepEqual(got.map((r) => `${r.url} ${r.o}`), captures.sort((x, y) => x.offset - y.offset).map((r) => `${r.url} ${r.offset}`))
  const types = await writeParquet([dir], fresh('dst'), { crawl: 'S', records: ['response'] })
  t.is(types.rows, all.filter((r) => r.recordType === 'response').length)
})

test('a directory holding archives and an index made from them is refused unless --inputs says which', async (t) => {
  const dir = fresh('mixed')
  await generateSample(dir, { files: 1, targetBytes: 1_000_000, seed: 8 })
  await writeIndex(dir, { output: join(dir, 'index.cdxj') })
  const e = await writeParquet([dir], fresh('dsm'), { crawl: 'M' }).catch((err) => err)
  t.is(e.name, 'UsageError')
  t.regex(e.message, /holds 1 WARC\/ARC files and 1 index files \(.*index\.cdxj\).*--inputs archives/)
  const archives = await writeParquet([dir], fresh('dsm'), { crawl: 'M', inputs: 'archives', records: 'index' })
  const indexes = await writeParquet([dir], fresh('dsm'), { crawl: 'M', inputs: 'indexes' })
  const both = await writeParquet([dir], fresh('dsm'), { crawl: 'M', inputs: 'all', records: 'index' })
  t.true(archives.rows > 20)
  t.is(indexes.rows, archives.rows)
  t.is(both.rows, 2 * archives.rows)
  const r = await run('node', [cli, 'parquet', dir, fresh('dsm')]).catch((err) => err)
  t.is(r.code, 2)
  t.regex(r.stderr, /--inputs archives, --inputs indexes or --inputs all/)
})

test('gzip and bzip2 indexes, CDX 11 and 9 fields, stdin, unsorted input', async (t) => {
  const lines = [
    ' CDX N b a m s k r M S V g',
    'org,example)/b 20200101000000 http://example.org/b text/html 200 AAA - - 10 100 a.warc.gz',
    'org,example)/a 20200101000000 http://example.org/a text/html 302 BBB http://example.org/b - 11 200 a.warc.gz',
  ]
  const gz = fresh('i') + '.cdx.gz'
  writeFileSync(gz, gzipSync(lines.join('\n') + '\n'))
  const nine = fresh('u') + '.cdx'
  writeFileSync(nine, ' CDX N b a m s k r V g\norg,example)/c 20200101000000 http://example.org/c text/html 404 CCC - 300 u.warc.gz\n')
  const out = fresh('ds')
  const s = await writeParquet([gz, nine], out, { crawl: 'X' })
  t.is(s.rows, 3)
  const rows = await duck(`SELECT subset, url, fetch_status, fetch_redirect, warc_record_length, warc_record_offset FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true) ORDER BY url`)
  t.deepEqual(rows, [
    { subset: 'crawldiagnostics', url: 'http://example.org/a', fetch_status: 302, fetch_redirect: 'http://example.org/b', warc_record_length: '11', warc_record_offset: '200' },
    { subset: 'warc', url: 'http://example.org/b', fetch_status: 200, fetch_redirect: null, warc_record_length: '10', warc_record_offset: '100' },
    { subset: 'crawldiagnostics', url: 'http://example.org/c', fetch_status: 404, fetch_redirect: null, warc_record_length: '-1', warc_record_offset: '300' },
  ])
  // bzip2 through the CLI on standard input.
  const bz = await run('sh', ['-c', `command -v bzip2 >/dev/null && printf '%s\\n' '${lines[1]}' '${lines[2]}' | bzip2 | node ${cli} parquet -q --crawl B - ${out}-bz && echo ok`]).catch((e) => e)
  if (bz.stdout?.includes('ok')) {
    const r = await duck(`SELECT count(*)::INT AS n FROM read_parquet('${out}-bz/**/*.parquet')`)
    t.is(r[0].n, 2)
  } else t.log('bzip2 tool absent: stdin bz2 not checked')
})

test('an index already in order is written as it comes, into the files the sort would give', async (t) => {
  const lines = []
  for (let i = 0; i < 3000; i++) {
    const k = (i * 7919) % 3000
    lines.push(`com,example${k % 7})/p${String(k).padStart(4, '0')} 20200101000000 {"url": "http://example${k % 7}.com/p${k}", "status": "${k % 5 === 0 ? 404 : 200}", "offset": "${k}", "length": "5", "filename": "x.warc.gz"}`)
  }
  const sorted = [...lines].sort()
  const a = await convert(lines, { crawl: 'S' })
  const b = await convert(sorted, { crawl: 'S' })
  t.is(a.summary.streamedRows, 0)
  t.is(b.summary.streamedRows, 3000)
  // Each partition's one file, row by row in file order.
  const rows = async (out) => duck(`SELECT url_surtkey, fetch_status, warc_record_offset::INT AS o, subset FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true, file_row_number = true) ORDER BY subset, file_row_number`)
  const strip = (r) => r.map((x) => [x.url_surtkey, x.fetch_status, x.o, x.subset])
  const [ra, rb] = [strip(await rows(a.out)), strip(await rows(b.out))]
  t.is(rb.length, 3000)
  t.deepEqual(rb, ra)
})

test('bounded files and memory: spilled runs merge into globally sorted files of at most --max-file-rows rows', async (t) => {
  const lines = []
  for (let i = 0; i < 20000; i++) {
    const k = (i * 7919) % 20000
    const host = `h${k % 97}.example${k % 13}.com`
    lines.push(`com,example${k % 13},h${k % 97})/p${k} 2020010100${String(k % 60).padStart(2, '0')}00 {"url": "http://${host}/p${k}", "status": "${k % 10 === 0 ? 404 : 200}", "offset": "${k}", "length": "5", "filename": "x.warc.gz"}`)
  }
  const { out, summary, files } = await convert(lines, { crawl: 'BIG', maxFileRows: 3000, sortBudgetBytes: 1 << 19 })
  t.true(summary.spilledRuns >= 3, `spilled ${summary.spilledRuns} runs`)
  t.is(summary.streamedRows, 0, 'an unsorted input is sorted')
  t.is(summary.rows, 20000)
  const warc = files.filter((f) => f.includes('subset=warc'))
  t.is(warc.length, Math.ceil(18000 / 3000))
  let prev = ''
  for (const f of warc) {
    const meta = await parquetMetadataAsync(await asyncBufferFromFile(f))
    t.true(Number(meta.num_rows) <= 3000)
    const keys = (await readRows(f)).map((r) => r.url_surtkey)
    t.true(keys[0] >= prev, 'files follow each other in key order')
    for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) t.fail(`${f}: unsorted at row ${i}`)
    prev = keys[keys.length - 1]
  }
  t.is(relative(out, dirname(files[0])), 'crawl=BIG/subset=crawldiagnostics')
})

test('layout: zstd by default, gzip/snappy on request, dictionary, page index, bloom filters, row groups', async (t) => {
  const lines = []
  for (let i = 0; i < 5000; i++) lines.push(`com,example)/${String(i).padStart(5, '0')} 20200101000000 {"url": "http://example.com/${String(i).padStart(5, '0')}", "mime": "text/html", "status": "200", "offset": "${i}", "length": "1", "filename": "x.warc.gz"}`)
  const codecOf = async (opts) => {
    const { files } = await convert(lines, { crawl: 'L', rowGroupRows: 1000, pageRows: 250, ...opts })
    return [files[0], await parquetMetadataAsync(await asyncBufferFromFile(files[0]))]
  }
  const [zf, z] = await codecOf({})
  t.true(zf.endsWith('.zstd.parquet'))
  t.is(z.row_groups.length, 5)
  const col = (m, name, rg = 0) => m.row_groups[rg].columns.find((c) => c.meta_data.path_in_schema[0] === name)
  t.is(col(z, 'url').meta_data.codec, 'ZSTD')
  t.truthy(col(z, 'content_mime_type').meta_data.encodings.some((e) => /DICTIONARY/.test(e)), 'dictionary encoding')
  const deltas = (name) => col(z, name).meta_data.encodings.filter((e) => e.startsWith('DELTA'))
  t.deepEqual(deltas('url_surtkey'), ['DELTA_BYTE_ARRAY'])
  for (const name of ['fetch_time', 'warc_record_offset', 'warc_record_length']) t.deepEqual(deltas(name), ['DELTA_BINARY_PACKED'], name)
  const back = await readRows(zf)
  t.deepEqual(back.map((r) => Number(r.warc_record_offset)), lines.map((_, i) => i), 'bit-packed offsets read back')
  t.true(back.every((r) => new Date(r.fetch_time).toISOString() === '2020-01-01T00:00:00.000Z'), 'bit-packed fetch times read back')
  t.truthy(col(z, 'url_surtkey').column_index_offset, 'page index written')
  t.truthy(col(z, 'url_surtkey').offset_index_offset)
  t.is(col(z, 'url_surtkey').meta_data.bloom_filter_offset, undefined, 'no bloom filter unless asked')
  // Row-group statistics allow skipping: min/max per group follow the key order.
  const stats = z.row_groups.map((_, i) => col(z, 'url_surtkey', i).meta_data.statistics)
  for (let i = 1; i < stats.length; i++) t.true(stats[i].min_value > stats[i - 1].max_value)
  t.is(col((await codecOf({ compression: 'gzip' }))[1], 'url').meta_data.codec, 'GZIP')
  t.is(col((await codecOf({ compression: 'snappy' }))[1], 'url').meta_data.codec, 'SNAPPY')
  const [, b] = await codecOf({ bloomFilters: true })
  t.truthy(col(b, 'url_surtkey').meta_data.bloom_filter_offset)
  t.truthy(col(b, 'url_host_registered_domain').meta_data.bloom_filter_offset)
  t.is(col(b, 'url').meta_data.bloom_filter_offset, undefined)
})

test('pages zstd cannot shrink are kept in raw zstd frames, which hyparquet and DuckDB read back', async (t) => {
  // Random offsets and lengths: their bit-packed pages leave zstd nothing to find.
  let seed = 99
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed >>> 1)
  const rows = []
  for (let i = 0; i < 20000; i++) rows.push({ key: `com,example)/${String(i).padStart(5, '0')}`, offset: rnd(), length: rnd() })
  const lines = rows.map((r) => `${r.key} 20200101000000 {"url": "http://example.com/${r.key.slice(13)}", "mime": "text/html", "status": "200", "offset": "${r.offset}", "length": "${r.length}", "filename": "x.warc.gz"}`)
  const { files } = await convert(lines, { crawl: 'R' })
  t.is(files.length, 1)
  // A raw frame's start (magic, single segment, 4-byte content size): each
  // column's pages after its first (4 of 5000 rows, in 2 columns) at least.
  const bytes = readFileSync(files[0])
  let frames = 0
  for (let i = bytes.indexOf(0x28); i >= 0 && i + 4 < bytes.length; i = bytes.indexOf(0x28, i + 1)) {
    if (bytes[i + 1] === 0xb5 && bytes[i + 2] === 0x2f && bytes[i + 3] === 0xfd && bytes[i + 4] === 0xa0) frames++
  }
  t.true(frames >= 6, `${frames} raw zstd frames`)
  const back = await readRows(files[0])
  t.deepEqual(back.map((r) => [Number(r.warc_record_offset), Number(r.warc_record_length)]), rows.map((r) => [r.offset, r.length]), 'hyparquet')
  const viaDuck = await duck(`SELECT warc_record_offset o, warc_record_length l FROM read_parquet('${files[0]}') ORDER BY url_surtkey`)
  t.deepEqual(viaDuck.map((r) => [Number(r.o), Number(r.l)]), rows.map((r) => [r.offset, r.length]), 'DuckDB')
})

// --- the spec's example queries -----------------------------------------------

/** A Common-Crawl-style index with known hosts, statuses and mimes. */
function ccIndex() {
  const hosts = [
    ['www.commoncrawl.org', 'commoncrawl.org', 'org'], ['index.commoncrawl.org', 'commoncrawl.org', 'org'],
    ['www.vg.no', 'vg.no', 'no'], ['nrk.no', 'nrk.no', 'no'], ['www.nrk.no', 'nrk.no', 'no'], ['blogg.uio.no', 'uio.no', 'no'],
    ['www.example.com', 'example.com', 'com'], ['myblog.blogspot.com', 'blogspot.com', 'com'], ['bbc.co.uk', 'bbc.co.uk', 'uk'],
  ]
  const mimes = [['text/html', 'text/html'], ['application/pdf', 'application/pdf'], ['application/octet-stream', 'application/pdf'], ['text/plain', 'text/plain']]
  const statuses = [200, 200, 200, 301, 404, 500]
  let seed = 12345
  const rnd = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n)
  const rows = []
  for (let i = 0; i < 3000; i++) {
    const [host, domain, tld] = hosts[rnd(hosts.length)]
    const crawl = rnd(5) === 0 ? 'CC-MAIN-2017-51' : 'CC-MAIN-2018-05'
    const robots = rnd(20) === 0
    const status = robots ? 200 : statuses[rnd(statuses.length)]
    const subset = robots ? 'robotstxt' : status === 200 ? 'warc' : 'crawldiagnostics'
    const [mime, detected] = mimes[rnd(mimes.length)]
    const path = robots ? '/robots.txt' : `/p${i}`
    const url = `https://${host}${path}`
    const key = `${host.split('.').reverse().join(',')})${path}`
    const filename = `crawl-data/${crawl}/segments/1516084886237.6${rnd(3)}/${subset}/CC-MAIN-x-0000${rnd(9)}.warc.gz`
    rows.push({ host, domain, tld, crawl, subset, status, mime, detected, url, filename, offset: i * 1000, length: 500 + i })
    const json = { url, mime, 'mime-detected': detected, status: String(status), digest: 'D', length: String(500 + i), offset: String(i * 1000), filename }
    const hms = [Math.floor(i / 3600) % 24, Math.floor(i / 60) % 60, i % 60].map((v) => String(v).padStart(2, '0')).join('')
    rows[rows.length - 1].line = `${key} 20180120${hms} ${JSON.stringify(json)}`
  }
  return rows
}

const sorted = (m) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1))

const count = (rows, keyOf) => {
  const m = new Map()
  for (const r of rows) {
    const k = JSON.stringify(keyOf(r))
    m.set(k, (m.get(k) ?? 0) + 1)
  }
  return sorted(m)
}

const Q = {
  q1: `SELECT COUNT(*) as n_captures,
       crawl,
       subset
FROM "ccindex"."ccindex"
GROUP BY crawl, subset;`,
  q2: `SELECT COUNT(*) AS n_pages,
       url_host_tld AS tld,
       COUNT(DISTINCT url_host_name) AS n_hosts,
       COUNT(DISTINCT url_host_registered_domain) AS n_domains
FROM "ccindex"."ccindex"
WHERE crawl = 'CC-MAIN-2018-05'
  AND subset = 'warc'
GROUP BY  url_host_tld
ORDER BY  n_pages DESC;`,
  q3: `SELECT COUNT(*) AS count,
       url_host_registered_domain
FROM "ccindex"."ccindex"
WHERE crawl = 'CC-MAIN-2018-05'
  AND subset = 'warc'
  AND url_host_tld = 'no'
GROUP BY  url_host_registered_domain
HAVING (COUNT(*) >= 100)
ORDER BY  count DESC;`,
  q4: `SELECT COUNT(*) as count,
       fetch_status
FROM "ccindex"."ccindex"
WHERE crawl = 'CC-MAIN-2018-05'
  AND subset = 'crawldiagnostics'
GROUP BY  fetch_status
ORDER BY  count DESC;`,
  q5: `SELECT url,
       warc_filename,
       warc_record_offset,
       warc_record_length
FROM "ccindex"."ccindex"
WHERE crawl = 'CC-MAIN-2018-05'
  AND subset = 'warc'
  AND url_host_registered_domain = 'commoncrawl.org'
LIMIT 1000;`,
  q6: `SELECT url,
       content_mime_type,
       content_mime_detected,
       warc_filename,
       warc_record_offset,
       warc_record_length
FROM "ccindex"."ccindex"
WHERE crawl = 'CC-MAIN-2018-05'
  AND subset = 'warc'
  AND (content_mime_detected = 'application/pdf' OR
       content_mime_type LIKE '%pdf%')
LIMIT 1000;`,
  q7: `SELECT COUNT(*) as n_pages,
       content_mime_type,
       content_mime_detected
FROM "ccindex"."ccindex"
WHERE crawl = 'CC-MAIN-2018-05'
  AND subset = 'warc'
GROUP BY content_mime_type,
         content_mime_detected
ORDER BY n_pages DESC;`,
}

test("the spec's example queries run unchanged through warcdex query and match aggregations of the input", async (t) => {
  const rows = ccIndex()
  const src = fresh('cc') + '.cdxj'
  // Unsorted input on purpose.
  writeFileSync(src, rows.map((r) => r.line).reverse().join('\n') + '\n')
  const ds = fresh('ccds')
  const conv = await run('node', [cli, 'parquet', src, ds])
  t.regex(conv.stderr, /warcdex: 3000 rows from 1 inputs into \d+ files .* rows\/s/)
  const query = async (sql) => {
    const { stdout } = await run('node', [cli, 'query', '-f', 'json', ds, sql])
    return stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l))
  }
  // Maps compared as sorted entries: row order is the query's business (checked apart).
  const asMap = (objs, keyOf, valOf) => sorted(new Map(objs.map((o) => [JSON.stringify(keyOf(o)), Number(valOf(o))])))
  const in18 = (s) => rows.filter((r) => r.crawl === 'CC-MAIN-2018-05' && r.subset === s)

  t.deepEqual(asMap(await query(Q.q1), (o) => [o.crawl, o.subset], (o) => o.n_captures), count(rows, (r) => [r.crawl, r.subset]))

  const q2 = await query(Q.q2)
  const warc = in18('warc')
  const tlds = [...new Set(warc.map((r) => r.tld))]
  t.deepEqual(
    sorted(new Map(q2.map((o) => [o.tld, [Number(o.n_pages), Number(o.n_hosts), Number(o.n_domains)]]))),
    sorted(new Map(tlds.map((tld) => {
      const w = warc.filter((r) => r.tld === tld)
      return [tld, [w.length, new Set(w.map((r) => r.host)).size, new Set(w.map((r) => r.domain)).size]]
    }))),
  )
  t.true(q2.every((o, i) => i === 0 || Number(q2[i - 1].n_pages) >= Number(o.n_pages)), 'ORDER BY n_pages DESC')

  const q3 = await query(Q.q3)
  const noDomains = count(warc.filter((r) => r.tld === 'no'), (r) => r.domain)
  t.deepEqual(asMap(q3, (o) => o.url_host_registered_domain, (o) => o.count), noDomains.filter(([, c]) => c >= 100))
  t.true(q3.length >= 1, 'the fixture has a .no domain with 100+ captures')

  t.deepEqual(asMap(await query(Q.q4), (o) => o.fetch_status, (o) => o.count), count(in18('crawldiagnostics'), (r) => r.status))

  const q5 = await query(Q.q5)
  const want5 = warc.filter((r) => r.domain === 'commoncrawl.org')
  const key5 = (o) => `${o.url} ${o.warc_filename} ${o.warc_record_offset} ${o.warc_record_length}`
  t.deepEqual(q5.map(key5).sort(), want5.map((r) => `${r.url} ${r.filename} ${r.offset} ${r.length}`).sort())

  const q6 = await query(Q.q6)
  const want6 = warc.filter((r) => r.detected === 'application/pdf' || r.mime.includes('pdf'))
  t.deepEqual(q6.map((o) => `${o.url} ${o.content_mime_type} ${o.content_mime_detected}`).sort(), want6.map((r) => `${r.url} ${r.mime} ${r.detected}`).sort())

  t.deepEqual(asMap(await query(Q.q7), (o) => [o.content_mime_type, o.content_mime_detected], (o) => o.n_pages), count(warc, (r) => [r.mime, r.detected]))

  // The other output formats.
  const table = await run('node', [cli, 'query', ds, Q.q1])
  t.regex(table.stdout, /^n_captures\s+crawl\s+subset\n-+/)
  t.regex(table.stdout, /\(\d rows\)\n$/)
  const csv = await run('node', [cli, 'query', '-f', 'csv', ds, 'SELECT COUNT(*) AS n FROM ccindex'])
  t.is(csv.stdout, 'n\n3000\n')
  const pq = fresh('q') + '.parquet'
  await run('node', [cli, 'query', '-f', 'parquet', '-o', pq, ds, 'SELECT url FROM ccindex WHERE subset = \'robotstxt\''])
  t.is((await readRows(pq)).length, rows.filter((r) => r.subset === 'robotstxt').length)
})

test('CLI: usage errors exit 2, a missing input exits 1', async (t) => {
  const e1 = await run('node', [cli, 'parquet', 'only-one-arg']).catch((e) => e)
  t.is(e1.code, 2)
  const e2 = await run('node', [cli, 'parquet', '--partition-by', 'url', 'a', 'b']).catch((e) => e)
  t.is(e2.code, 2)
  t.regex(e2.stderr, /--partition-by takes crawl and subset/)
  const e3 = await run('node', [cli, 'parquet', join(tmp, 'missing.cdxj'), fresh('x')]).catch((e) => e)
  t.is(e3.code, 1)
  const e4 = await run('node', [cli, 'query', '-f', 'parquet', 'ds', 'SELECT 1']).catch((e) => e)
  t.is(e4.code, 2)
  const help = await run('node', [cli, '--help'])
  t.regex(help.stdout, /parquet +write a cc-index-table/)
  t.regex(help.stdout, /query +run SQL/)
  mkdirSync(fresh('empty'), { recursive: true })
  t.true(statSync(tmp).isDirectory())
})
