// The TypeScript API: sources (path, Buffer, stream), records and payloads,
// index rows, writeIndex, and the promises it makes (no blocking, no crash).
import test from 'ava'
import { createRequire } from 'node:module'
import { rmSync, mkdtempSync, readFileSync, writeFileSync, createReadStream } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'

import { ArchiveError, generateSample, indexRecords, readPayload, readRecords, writeIndex } from '../dist/index.js'

const dir = mkdtempSync(join(tmpdir(), 'warcdex-api-'))
test.after.always(() => rmSync(dir, { recursive: true, force: true }))
const native = createRequire(import.meta.url)('../native/index.cjs')

function warcRecord({ type = 'response', uri, date = '2024-05-06T07:08:09Z', http = null, body = '', headers = {} }) {
  const block = Buffer.concat([Buffer.from(http ?? ''), Buffer.from(body)])
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')
  const head =
    `WARC/1.1\r\nWARC-Type: ${type}\r\nWARC-Record-ID: <urn:uuid:${Math.random().toString(16).slice(2)}>\r\n` +
    `WARC-Date: ${date}\r\n` + (uri ? `WARC-Target-URI: ${uri}\r\n` : '') + extra +
    `Content-Type: ${http ? 'application/http; msgtype=response' : 'text/plain'}\r\nContent-Length: ${block.length}\r\n\r\n`
  return Buffer.concat([Buffer.from(head), block, Buffer.from('\r\n\r\n')])
}

const page = '<html><body>hello</body></html>'
const httpHead = `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${page.length}\r\n\r\n`
const records = [
  warcRecord({ type: 'warcinfo', body: 'software: test\r\n' }),
  warcRecord({ uri: 'http://www.Example.com/a?b=2&a=1', http: httpHead, body: page }),
  warcRecord({ type: 'resource', uri: 'urn:x:res', body: 'plain text' }),
]
const plain = Buffer.concat(records)
const gz = Buffer.concat(records.map((r) => gzipSync(r)))
const plainPath = join(dir, 'a.warc')
const gzPath = join(dir, 'a.warc.gz')
writeFileSync(plainPath, plain)
writeFileSync(gzPath, gz)

async function collect(it) {
  const out = []
  for await (const x of it) out.push(x)
  return out
}

test('readRecords gives types, headers, HTTP and offsets; payloads only on demand', async (t) => {
  const recs = await collect(readRecords(gzPath))
  t.deepEqual(recs.map((r) => r.type), ['warcinfo', 'response', 'resource'])
  // Offsets are the gzip members.
  const m0 = gzipSync(records[0]).length
  t.deepEqual(recs.map((r) => r.offset), [0, m0, m0 + gzipSync(records[1]).length])
  const resp = recs[1]
  t.is(resp.http.status, 200)
  t.is(resp.http.headers.get('CONTENT-TYPE'), 'text/html; charset=utf-8')
  t.is(resp.headers.get('warc-target-uri'), 'http://www.Example.com/a?b=2&a=1')
  t.is(resp.payloadLength, page.length)
  t.is((await resp.payload()).toString(), page)
  const streamed = await collect(resp.payloadStream())
  t.is(Buffer.concat(streamed).toString(), page)
})

test('a Buffer, a Node stream and a file give the same rows', async (t) => {
  const fromFile = await collect(indexRecords(plainPath))
  const fromBuffer = await collect(indexRecords(plain, { name: 'a.warc' }))
  const fromStream = await collect(indexRecords(createReadStream(plainPath, { highWaterMark: 7 }), { name: 'a.warc' }))
  t.is(fromFile.length, 2)
  t.is(fromFile[0].urlkey, 'com,example)/a?a=1&b=2')
  t.is(fromFile[0].mime, 'text/html')
  t.is(fromFile[0].status, '200')
  t.is(fromFile[1].urlkey, 'urn:x:res')
  const strip = (rows) => rows.map(({ filename, ...r }) => r)
  t.deepEqual(strip(fromBuffer), strip(fromFile))
  t.deepEqual(strip(fromStream), strip(fromFile))
})

test('payloads of stream sources are kept when asked for', async (t) => {
  const recs = await collect(readRecords(Readable.from([plain.subarray(0, 100), plain.subarray(100)]), { payload: 'buffer' }))
  t.is((await recs[1].payload()).toString(), page)
  const noPayload = await collect(readRecords(Readable.from([plain])))
  t.throws(() => noPayload[1].payloadStream(), { message: /not kept/ })
})

test('readPayload streams the payload of an index row', async (t) => {
  const [row] = await collect(indexRecords(gzPath))
  const chunks = await collect(readPayload(gzPath, row.offset))
  t.is(Buffer.concat(chunks).toString(), page)
})

test('strict mode throws an ArchiveError with source and offset; default mode reports and goes on', async (t) => {
  const bad = Buffer.concat([records[1], Buffer.from('garbage line\r\n'), records[2]])
  const problems = []
  const rows = await collect(indexRecords(bad, { name: 'bad.warc', onProblem: (p) => problems.push(p) }))
  t.deepEqual(rows.map((r) => r.urlkey), ['com,example)/a?a=1&b=2', 'urn:x:res'])
  t.is(problems.length, 1)
  t.is(problems[0].offset, records[1].length)
  const err = await t.throwsAsync(collect(indexRecords(bad, { name: 'bad.warc', strict: true })), { instanceOf: ArchiveError })
  t.is(err.offset, records[1].length)
  t.is(err.source, 'bad.warc')
  t.is(err.code, 'EBADRECORD')
})

test('writeIndex to a file, sorted, with a summary', async (t) => {
  const out = join(dir, 'out.cdxj')
  const summary = await writeIndex([gzPath, plainPath], { output: out, sort: true })
  t.is(summary.entries, 4)
  t.is(summary.records, 6)
  const lines = readFileSync(out, 'utf8').trim().split('\n')
  // Sorted, and the identical lines of the two files kept apart by their filename.
  t.deepEqual(lines, [...lines].sort())
  t.is(lines.length, 4)
})

test('writeIndex of a stream writes the same lines as of the file', async (t) => {
  const a = join(dir, 'f.cdx')
  const b = join(dir, 's.cdx')
  await writeIndex(plainPath, { output: a, format: 'cdx11' })
  await writeIndex(Readable.from([plain]), { output: b, format: 'cdx11', name: 'a.warc' })
  t.is(readFileSync(b, 'utf8'), readFileSync(a, 'utf8'))
  t.true(readFileSync(a, 'utf8').startsWith(' CDX N b a m s k r M S V g\n'))
})

test('the event loop keeps running during a large job', async (t) => {
  const sample = join(dir, 'big')
  await generateSample(sample, { files: 1, targetBytes: 30_000_000, seed: 7 })
  let ticks = 0
  const timer = setInterval(() => ticks++, 5)
  const started = Date.now()
  const summary = await writeIndex(sample, { output: join(dir, 'big.cdxj') })
  clearInterval(timer)
  const elapsed = Date.now() - started
  t.true(summary.entries > 100, `${summary.entries} rows`)
  // A blocked loop would tick about once; a free one about every 5 ms.
  t.true(ticks >= Math.min(5, elapsed / 20), `${ticks} ticks in ${elapsed} ms`)
})

test('a Rust panic becomes a JavaScript error', (t) => {
  t.throws(() => native.panicForTest(), { message: /internal error.*deliberate panic/ })
})

test('the sample generator is reproducible from its seed', async (t) => {
  const a = await generateSample(join(dir, 's1'), { files: 1, targetBytes: 200_000, seed: 3 })
  const b = await generateSample(join(dir, 's2'), { files: 1, targetBytes: 200_000, seed: 3 })
  t.deepEqual(readFileSync(a[0].path), readFileSync(b[0].path))
  const types = new Set((await collect(readRecords(a[0].path))).map((r) => r.type))
  for (const type of ['warcinfo', 'request', 'response']) t.true(types.has(type), type)
})
