// Bad input: every case gets a message naming the file and byte offset, bad
// records are reported and skipped (or, with --strict / `strict: true`, stop
// the run), and exactly the records that can be read survive. Every fixture
// is generated here, at test time, in a temporary directory.
//
// Decisions these tests pin down (beyond those in the issue):
// - Offsets and lengths: a record's member (compressed) or its bytes without
//   the blank lines after it (uncompressed), as warcio computes them. Errors
//   in a per-record member point at the member's raw offset; in a member that
//   holds several records (whole-file gzip) at the decoded offset, like rows.
// - A record kept although its member broke spans up to the next member
//   found; its bytes are not also counted as skipped bytes.
// - A Content-Length that overruns cannot be told from content: the bytes it
//   takes belong to its record (flagged `truncated` with a warning when the
//   input ends first); a next record it cut into is reported and skipped.
// - A Content-Length that undershoots inside a record's own gzip member leaves
//   bytes that are reported and skipped; the file's other offsets stay raw
//   member offsets (seekable).
// - A compressed member whose record header cannot be decoded (e.g. a zstd
//   frame cut inside its only block) is a skipped record, not a kept one.
// - Header lines that are not UTF-8 are read as ISO-8859-1 (like warcio) with
//   a warning; HTTP headers, which are archived data, are not warned about.
// - A file refused before it is read (unsupported compression) counts as one
//   skipped input with 0 bytes skipped; its bytes were never read.
// - An input that fails while it is read (a stream that errors) ends there:
//   one EIO problem at the offset of the record being read; bytes that
//   arrived before the failure are all read first.
// - Warnings (kept records, repairs, an empty file) do not change the exit
//   status and do not stop a strict run; skipped records and files do.
import test from 'ava'
import { execFileSync, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'

import { ArchiveError, indexRecords, readRecords } from '../dist/index.js'

import { base32 } from './helpers.js'

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const BIN = path.join(ROOT, 'bin', 'warcdex.js')
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'warcdex-bad-input-'))
test.after.always(() => fs.rmSync(DIR, { recursive: true, force: true }))

const MAX_HEADER = 4 << 20

// ---------------------------------------------------------------- fixtures

/** A WARC record (with its two trailing CRLFs). `length: null` leaves Content-Length out. */
function warc(uri, body, { type = 'resource', contentType = 'text/plain', length, extra = '' } = {}) {
  const content = Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1')
  const id = crypto.createHash('sha1').update(uri + content.length).digest('hex').slice(0, 32)
  const lines = [
    'WARC/1.0',
    `WARC-Type: ${type}`,
    `WARC-Target-URI: ${uri}`,
    `WARC-Date: 2024-01-02T03:04:05Z`,
    `WARC-Record-ID: <urn:uuid:${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}>`,
    `Content-Type: ${contentType}`,
  ]
  if (length !== null) lines.push(`Content-Length: ${length ?? content.length}`)
  const head = Buffer.from(`${lines.join('\r\n')}\r\n${extra}\r\n`, 'latin1')
  return Buffer.concat([head, content, Buffer.from('\r\n\r\n')])
}

/** Bytes of a record's header block (up to and including its blank line). */
const headLength = (rec) => rec.indexOf('\r\n\r\n') + 4

/** Deterministic text that does not compress much (so that a cut lands where it is made). */
function noise(n, seed) {
  const parts = []
  for (let i = 0, len = 0; len < n; i++) {
    const h = crypto.createHash('sha256').update(`${seed}:${i}`).digest('hex')
    parts.push(h)
    len += h.length
  }
  return Buffer.from(parts.join('').slice(0, n))
}

const ARC_FILEDESC_BODY = '1 0 warcdex-test\nURL IP-address Archive-date Content-type Archive-length\n'
const arcFiledesc = () =>
  Buffer.from(`filedesc://test.arc 0.0.0.0 20010101000000 text/plain ${ARC_FILEDESC_BODY.length}\n${ARC_FILEDESC_BODY}\n`)
const ARC_HTTP = 'HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\nhi'
/** An ARC v1 URL record with its trailing newline; `length` overrides the declared length. */
function arc(url, content = ARC_HTTP, length) {
  const c = Buffer.from(content, 'latin1')
  return Buffer.concat([Buffer.from(`${url} 1.2.3.4 20010101000000 text/html ${length ?? c.length}\n`, 'latin1'), c, Buffer.from('\n')])
}

const gz = (buf) => zlib.gzipSync(buf)
/** What a gzip member cut short decodes to (everything before the cut). */
const gunzipPrefix = (buf) => zlib.gunzipSync(buf, { finishFlush: zlib.constants.Z_SYNC_FLUSH })

function hasCommand(cmd) {
  return spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0
}
const HAS_XZ = hasCommand('xz')
const HAS_ZSTD = hasCommand('zstd')
const xz = (buf) => execFileSync('xz', ['-c', '-6', '--format=xz'], { input: buf, maxBuffer: 1 << 30 })
const zst = (buf) => execFileSync('zstd', ['-c', '-q', '-3'], { input: buf, maxBuffer: 1 << 30 })
/** Bytes the reference tool decodes from a cut member before it fails. */
const refDecoded = (cmd, buf) => spawnSync(cmd, ['-dc', '-q'], { input: buf, maxBuffer: 1 << 30 }).stdout.length

/** Writes `parts` to DIR/name and returns the absolute path. */
function put(name, ...parts) {
  const p = path.join(DIR, name)
  fs.mkdirSync(path.dirname(p), { recursive: true })
  fs.writeFileSync(p, Buffer.concat(parts.map((x) => (typeof x === 'string' ? Buffer.from(x) : x))))
  return p
}

// ---------------------------------------------------------------- runners

const SUMMARY =
  /^warcdex: (\d+) rows from (\d+) records in (\d+) files; (\d+) skipped \((\d+) bytes\), (\d+) warnings; \d+\.\d+s$/

/** Runs `warcdex index ARGS` in DIR (so messages name files as given). */
function cli(...args) {
  const r = spawnSync(process.execPath, [BIN, 'index', ...args], { cwd: DIR, encoding: 'utf8', maxBuffer: 1 << 26 })
  const errLines = r.stderr.split('\n').filter((l) => l !== '')
  const last = SUMMARY.exec(errLines.at(-1) ?? '')
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    rows: r.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const m = /^(\S+) (\d{14}) (\{.*\})$/.exec(l)
        if (!m) throw new Error(`not a CDXJ line: ${l}`)
        const f = JSON.parse(m[3])
        return [f.url, Number(f.offset), Number(f.length), f.filename]
      }),
    problems: errLines.filter((l) => /^warcdex: (skipped|warning|stopped)/.test(l)),
    summary: last && {
      rows: +last[1],
      records: +last[2],
      files: +last[3],
      skipped: +last[4],
      bytesSkipped: +last[5],
      warnings: +last[6],
    },
  }
}

const summary = (rows, records, files, skipped, bytesSkipped, warnings) => ({ rows, records, files, skipped, bytesSkipped, warnings })

/** Index rows and problems of one source through the API. */
async function api(source, options = {}) {
  const problems = []
  const rows = []
  for await (const e of indexRecords(source, { onProblem: (p) => problems.push(p), ...options })) rows.push(e)
  return { rows, problems, r3: rows.map((e) => [e.url, e.offset, e.length]) }
}

/** Runs a strict read to its ArchiveError; returns what came before it, and the error. */
async function strictRun(iterate) {
  const before = []
  let error
  try {
    for await (const x of iterate()) before.push(x)
  } catch (e) {
    error = e
  }
  return { before, error }
}

const problem = (event, code, source, offset, text) => ({ event, code, source, offset, message: `${source}: offset ${offset}: ${text}` })

// ---------------------------------------------------------------- memory (serial: nothing else runs meanwhile)

/**
 * Peak RSS of this worker process up to the end of `fn` (the kernel's high-water
 * mark, so nothing is missed between samples; serial tests run first, alone).
 */
async function peakRss(fn) {
  let peak = process.memoryUsage().rss
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25)
  try {
    const result = await fn()
    peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024)
    return { result, peak }
  } finally {
    clearInterval(timer)
  }
}


test.serial('a single 3 GiB record streamed from a Node Readable: one row, exact digest, bounded memory', async (t) => {
  // 3 GiB runs in a few seconds here (the content is generated, hashed in JS and in Rust); nothing is written to disk.
  const SIZE = 3 * 2 ** 30
  const CHUNK = 1 << 20
  const head = Buffer.from(
    'WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://big.example/blob\r\n' +
      `WARC-Date: 2024-01-02T03:04:05Z\r\nContent-Type: application/octet-stream\r\nContent-Length: ${SIZE}\r\n\r\n`,
  )
  const after = warc('http://after.example/', 'still read')
  const sha1 = crypto.createHash('sha1')
  function* content() {
    yield head
    for (let i = 0, left = SIZE; left > 0; i++) {
      // Every chunk differs (fill byte and index), so a dropped or repeated chunk changes the digest.
      const chunk = Buffer.alloc(Math.min(CHUNK, left), (i * 7) & 0xff)
      chunk.writeUInt32BE(i, 0)
      sha1.update(chunk)
      left -= chunk.length
      yield chunk
    }
    yield Buffer.from('\r\n\r\n')
    yield after
  }
  const started = Date.now()
  const { result, peak } = await peakRss(() => api(Readable.from(content()), { name: 'big.warc' }))
  const secs = (Date.now() - started) / 1000
  t.log(`3 GiB in ${secs.toFixed(1)} s, peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`)
  const total = head.length + SIZE
  t.deepEqual(
    result.rows.map((e) => [e.url, e.offset, e.length, e.payloadLength, e.digest, e.filename, e.truncated]),
    [
      ['http://big.example/blob', 0, total, SIZE, `sha1:${base32(sha1.digest())}`, 'big.warc', undefined],
      ['http://after.example/', total + 4, after.length - 4, 10, result.rows[1]?.digest, 'big.warc', undefined],
    ],
  )
  t.deepEqual(result.problems, [])
  t.true(peak < 300 * 2 ** 20, `peak RSS ${peak} bytes`)
})

test.serial('a 1 GiB line of garbage without a newline between records: both records kept, memory bounded', async (t) => {
  const GARBAGE = 2 ** 30
  const a = warc('http://a.example/', 'alpha')
  const b = warc('http://b.example/', 'bravo')
  function* content() {
    yield a
    for (let left = GARBAGE; left > 0; left -= 1 << 20) yield Buffer.alloc(Math.min(1 << 20, left), 0x62)
    yield Buffer.from('\r\n')
    yield b
  }
  const { result, peak } = await peakRss(() => api(Readable.from(content()), { name: 'garbage-line.warc' }))
  t.log(`peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`)
  t.deepEqual(result.r3, [
    ['http://a.example/', 0, a.length - 4],
    ['http://b.example/', a.length + GARBAGE + 2, b.length - 4],
  ])
  t.deepEqual(result.problems, [
    problem('skipped', 'EBADRECORD', 'garbage-line.warc', a.length, `not the start of a WARC or ARC record: "${'b'.repeat(60)}"`),
  ])
  t.true(peak < 300 * 2 ** 20, `peak RSS ${peak} bytes`)
})

test.serial('a 1 GiB header line: the record is skipped at its offset, the next one read, memory bounded', async (t) => {
  const HUGE = 2 ** 30
  const b = warc('http://b.example/', 'bravo')
  const start = Buffer.from('WARC/1.0\r\nWARC-Type: resource\r\nX-Huge: ')
  function* content() {
    yield start
    for (let left = HUGE; left > 0; left -= 1 << 20) yield Buffer.alloc(Math.min(1 << 20, left), 0x78)
    yield Buffer.from('\r\n\r\n')
    yield b
  }
  const { result, peak } = await peakRss(() => api(Readable.from(content()), { name: 'huge-header.warc' }))
  t.deepEqual(result.r3, [['http://b.example/', start.length + HUGE + 4, b.length - 4]])
  t.deepEqual(result.problems, [problem('skipped', 'EBADRECORD', 'huge-header.warc', 0, `header line longer than ${MAX_HEADER} bytes`)])
  t.true(peak < 300 * 2 ** 20, `peak RSS ${peak} bytes`)
})

// ---------------------------------------------------------------- garbage, framing

test('garbage between records: reported at its offset, skipped to the next WARC/ line', async (t) => {
  const a = warc('http://a.example/', 'alpha')
  const b = warc('http://b.example/', 'bravo')
  const c = warc('http://c.example/', 'charlie')
  const junk = Buffer.from('junk line\r\nmore junk\r\n')
  const file = put('garbage.warc', a, junk, b, c)
  const rows = [
    ['http://a.example/', 0, a.length - 4],
    ['http://b.example/', a.length + junk.length, b.length - 4],
    ['http://c.example/', a.length + junk.length + b.length, c.length - 4],
  ]
  const text = 'not the start of a WARC or ARC record: "junk line"'

  const r = cli('garbage.warc')
  t.is(r.status, 1)
  t.deepEqual(r.rows, rows.map((x) => [...x, 'garbage.warc']))
  t.deepEqual(r.problems, [`warcdex: skipped: garbage.warc: offset ${a.length}: ${text}`])
  t.deepEqual(r.summary, summary(3, 3, 1, 1, junk.length, 0))

  const { r3, problems } = await api(file)
  t.deepEqual(r3, rows)
  t.deepEqual(problems, [problem('skipped', 'EBADRECORD', file, a.length, text)])

  // The same bytes from a Buffer, named.
  const fromBuffer = await api(fs.readFileSync(file), { name: 'buffer.warc' })
  t.deepEqual(fromBuffer.r3, rows)
  t.deepEqual(fromBuffer.problems, [problem('skipped', 'EBADRECORD', 'buffer.warc', a.length, text)])
})

test('--strict and strict: true stop at the first bad record with file and offset', async (t) => {
  const a = warc('http://a.example/', 'alpha')
  const b = warc('http://b.example/', 'bravo')
  const junk = Buffer.from('junk line\r\n')
  const file = put('strict/garbage.warc', a, junk, b)
  put('strict/later.warc', warc('http://later.example/', 'never read'))
  const text = 'not the start of a WARC or ARC record: "junk line"'
  const [bad, later] = [path.join('strict', 'garbage.warc'), path.join('strict', 'later.warc')]

  const r = cli('--strict', bad, later)
  t.is(r.status, 1)
  t.deepEqual(r.rows, [['http://a.example/', 0, a.length - 4, 'garbage.warc']])
  t.true(r.problems.includes(`warcdex: stopped (--strict): ${bad}: offset ${a.length}: ${text}`), r.stderr)
  t.false(r.stdout.includes('later.example'))

  // Without --strict both files are read.
  const lax = cli(bad, later)
  t.is(lax.status, 1)
  t.deepEqual(lax.rows.map((x) => x[0]), ['http://a.example/', 'http://b.example/', 'http://later.example/'])
  t.deepEqual(lax.summary, summary(3, 3, 2, 1, junk.length, 0))

  const idx = await strictRun(() => indexRecords(file, { strict: true, onProblem: () => t.fail('strict mode throws') }))
  t.deepEqual(idx.before.map((e) => e.url), ['http://a.example/'])
  t.true(idx.error instanceof ArchiveError)
  t.like(idx.error, { name: 'ArchiveError', code: 'EBADRECORD', source: file, offset: a.length, message: `${file}: offset ${a.length}: ${text}` })

  const recs = await strictRun(() => readRecords(fs.readFileSync(file), { strict: true, name: 'mem.warc' }))
  t.deepEqual(recs.before.map((x) => [x.targetUri, x.offset]), [['http://a.example/', 0]])
  t.true(recs.error instanceof ArchiveError)
  t.like(recs.error, { code: 'EBADRECORD', source: 'mem.warc', offset: a.length })
})

test('garbage between gzip members: skipped from its first byte to the next member', async (t) => {
  const [ga, gb, gc] = ['a', 'b', 'c'].map((h) => gz(warc(`http://${h}.example/`, `${h} content`)))
  const junk = Buffer.from('some garbage here\n')
  const file = put('garbage.warc.gz', ga, junk, gb, gc)
  const rows = [
    ['http://a.example/', 0, ga.length],
    ['http://b.example/', ga.length + junk.length, gb.length],
    ['http://c.example/', ga.length + junk.length + gb.length, gc.length],
  ]
  const text = 'bytes after the end of a gzip member do not start another member'

  const r = cli('garbage.warc.gz')
  t.is(r.status, 1)
  t.deepEqual(r.rows, rows.map((x) => [...x, 'garbage.warc.gz']))
  t.deepEqual(r.problems, [`warcdex: skipped: garbage.warc.gz: offset ${ga.length}: ${text}`])
  t.deepEqual(r.summary, summary(3, 3, 1, 1, junk.length, 0))

  const { r3, problems } = await api(file)
  t.deepEqual(r3, rows)
  t.deepEqual(problems, [problem('skipped', 'ECORRUPT', file, ga.length, text)])
})

test('a Content-Length that undershoots: the rest of the content is skipped up to the next record', async (t) => {
  const a = warc('http://a.example/', 'alpha and more', { length: 5 })
  const b = warc('http://b.example/', 'bravo')
  const file = put('undershoot.warc', a, b)
  const aLength = headLength(a) + 5
  const leftover = a.length - aLength // " and more" and the blank lines
  const text = 'not the start of a WARC or ARC record: " and more"'

  const r = cli('undershoot.warc')
  t.is(r.status, 1)
  t.deepEqual(r.rows, [
    ['http://a.example/', 0, aLength, 'undershoot.warc'],
    ['http://b.example/', a.length, b.length - 4, 'undershoot.warc'],
  ])
  t.deepEqual(r.problems, [`warcdex: skipped: undershoot.warc: offset ${aLength}: ${text}`])
  t.deepEqual(r.summary, summary(2, 2, 1, 1, leftover, 0))

  const { rows, problems } = await api(file)
  t.deepEqual(rows.map((e) => [e.url, e.offset, e.length, e.payloadLength]), [
    ['http://a.example/', 0, aLength, 5],
    ['http://b.example/', a.length, b.length - 4, 5],
  ])
  t.deepEqual(problems, [problem('skipped', 'EBADRECORD', file, aLength, text)])
})

test('a Content-Length that undershoots inside a gzip member: leftover reported, offsets stay raw and seekable', async (t) => {
  const ga = gz(warc('http://a.example/', 'alpha'))
  const under = warc('http://b.example/', 'bravo and more', { length: 5 })
  const gb = gz(under)
  const gc = gz(warc('http://c.example/', 'charlie'))
  const file = put('undershoot.warc.gz', ga, gb, gc)
  const leftover = under.length - headLength(under) - 5
  const text = `${leftover} bytes after the record's content in its gzip member are not a record: " and more"`
  const rows = [
    ['http://a.example/', 0, ga.length],
    ['http://b.example/', ga.length, gb.length],
    ['http://c.example/', ga.length + gb.length, gc.length],
  ]

  const r = cli('undershoot.warc.gz')
  t.is(r.status, 1)
  t.deepEqual(r.rows, rows.map((x) => [...x, 'undershoot.warc.gz']))
  // No "several records share one compressed member" warning: the member is still the record's.
  t.deepEqual(r.problems, [`warcdex: skipped: undershoot.warc.gz: offset ${ga.length}: ${text}`])
  t.deepEqual(r.summary, summary(3, 3, 1, 1, leftover, 0))

  const { rows: entries, problems } = await api(file)
  t.deepEqual(entries.map((e) => [e.url, e.offset, e.length]), rows)
  t.true(entries.every((e) => e.seekable === undefined && e.truncated === undefined))
  t.deepEqual(problems, [problem('skipped', 'EBADRECORD', file, ga.length, text)])
})

test('a Content-Length that overruns into the next record: the record it cut into is reported and skipped', async (t) => {
  // 'alpha' + CRLF CRLF + the "W" of the next record's "WARC/1.0": that record now starts with "ARC/1.0".
  const a = warc('http://a.example/', 'alpha', { length: 10 })
  const b = warc('http://b.example/', 'bravo')
  const c = warc('http://c.example/', 'charlie')
  const file = put('overrun.warc', a, b, c)
  const text = 'not the start of a WARC or ARC record: "ARC/1.0"'

  const r = cli('overrun.warc')
  t.is(r.status, 1)
  t.deepEqual(r.rows, [
    ['http://a.example/', 0, a.length + 1, 'overrun.warc'],
    ['http://c.example/', a.length + b.length, c.length - 4, 'overrun.warc'],
  ])
  t.deepEqual(r.problems, [`warcdex: skipped: overrun.warc: offset ${a.length + 1}: ${text}`])
  t.deepEqual(r.summary, summary(2, 2, 1, 1, b.length - 1, 0))

  const { r3, problems } = await api(file)
  t.deepEqual(r3, [
    ['http://a.example/', 0, a.length + 1],
    ['http://c.example/', a.length + b.length, c.length - 4],
  ])
  t.deepEqual(problems, [problem('skipped', 'EBADRECORD', file, a.length + 1, text)])
})

test('a Content-Length that overruns the end of the input: record kept, flagged, with a warning', async (t) => {
  const a = warc('http://a.example/', 'alpha')
  const b = warc('http://b.example/', 'bravo', { length: 500 })
  const file = put('overrun-end.warc', a, b)
  const got = b.length - headLength(b) // 'bravo' and the blank lines
  const text = `record content ends after ${got} of 500 bytes (Content-Length)`

  const r = cli('overrun-end.warc')
  t.is(r.status, 0)
  t.deepEqual(r.rows, [
    ['http://a.example/', 0, a.length - 4, 'overrun-end.warc'],
    ['http://b.example/', a.length, b.length, 'overrun-end.warc'],
  ])
  t.deepEqual(r.problems, [`warcdex: warning: overrun-end.warc: offset ${a.length}: ${text}`])
  t.deepEqual(r.summary, summary(2, 2, 1, 0, 0, 1))

  const { rows, problems } = await api(file, { strict: true })
  t.deepEqual(rows.map((e) => [e.url, e.offset, e.length, e.truncated]), [
    ['http://a.example/', 0, a.length - 4, undefined],
    ['http://b.example/', a.length, b.length, true],
  ])
  t.deepEqual(problems, [problem('warning', 'ETRUNCATED', file, a.length, text)])
})

test('a Content-Length that overruns its gzip member: record kept, flagged; the next member is read', async (t) => {
  const ga = gz(warc('http://a.example/', 'alpha'))
  const over = warc('http://b.example/', 'bravo', { length: 50 })
  const gb = gz(over)
  const gc = gz(warc('http://c.example/', 'charlie'))
  const file = put('overrun.warc.gz', ga, gb, gc)
  const text = `record content ends after ${over.length - headLength(over)} of 50 bytes (Content-Length)`

  const r = cli('overrun.warc.gz')
  t.is(r.status, 0)
  t.deepEqual(r.rows, [
    ['http://a.example/', 0, ga.length, 'overrun.warc.gz'],
    ['http://b.example/', ga.length, gb.length, 'overrun.warc.gz'],
    ['http://c.example/', ga.length + gb.length, gc.length, 'overrun.warc.gz'],
  ])
  t.deepEqual(r.problems, [`warcdex: warning: overrun.warc.gz: offset ${ga.length}: ${text}`])
  t.deepEqual(r.summary, summary(3, 3, 1, 0, 0, 1))

  const { rows, problems } = await api(file)
  t.deepEqual(rows.map((e) => e.truncated), [undefined, true, undefined])
  t.deepEqual(problems, [problem('warning', 'ETRUNCATED', file, ga.length, text)])
})

test('a missing Content-Length skips the record; an invalid one reads as 0 (like warcio)', async (t) => {
  const a = warc('http://a.example/', 'alpha', { length: null })
  const b = warc('http://b.example/', 'bravo', { length: -5 })
  const c = warc('http://c.example/', 'charlie', { length: 'lots' })
  const d = warc('http://d.example/', 'delta')
  const file = put('lengths.warc', a, b, c, d)
  const bAt = a.length
  const cAt = a.length + b.length
  const dAt = cAt + c.length
  // b and c: read as empty records; their content is then garbage up to the next WARC/ line.
  const expectedProblems = [
    ['skipped', 'EBADRECORD', 0, 'WARC record has no Content-Length'],
    ['warning', 'EBADRECORD', bAt, 'invalid record length "-5", read as 0'],
    ['skipped', 'EBADRECORD', bAt + headLength(b), 'not the start of a WARC or ARC record: "bravo"'],
    ['warning', 'EBADRECORD', cAt, 'invalid record length "lots", read as 0'],
    ['skipped', 'EBADRECORD', cAt + headLength(c), 'not the start of a WARC or ARC record: "charlie"'],
  ]
  const rows = [
    ['http://b.example/', bAt, headLength(b)],
    ['http://c.example/', cAt, headLength(c)],
    ['http://d.example/', dAt, d.length - 4],
  ]
  const skippedBytes = a.length + (b.length - headLength(b)) + (c.length - headLength(c))

  const r = cli('lengths.warc')
  t.is(r.status, 1)
  t.deepEqual(r.rows, rows.map((x) => [...x, 'lengths.warc']))
  t.deepEqual(
    r.problems,
    expectedProblems.map(([ev, , off, text]) => `warcdex: ${ev}: lengths.warc: offset ${off}: ${text}`),
  )
  t.deepEqual(r.summary, summary(3, 3, 1, 3, skippedBytes, 2))

  const { r3, problems } = await api(file)
  t.deepEqual(r3, rows)
  t.deepEqual(problems, expectedProblems.map(([ev, code, off, text]) => problem(ev, code, file, off, text)))

  const strict = await strictRun(() => indexRecords(file, { strict: true }))
  t.deepEqual(strict.before, [])
  t.like(strict.error, { code: 'EBADRECORD', source: file, offset: 0, message: `${file}: offset 0: WARC record has no Content-Length` })
})

// ---------------------------------------------------------------- truncated and corrupt compression

test('gzip cut inside a record at the end of the file: record kept with the bytes that decode', async (t) => {
  const ga = gz(warc('http://a.example/', 'alpha'))
  const big = warc('http://big.example/', noise(300_000, 1))
  const gb = gz(big)
  const cut = gb.subarray(0, Math.floor(gb.length / 2))
  const file = put('cut.warc.gz', ga, cut)
  const decoded = gunzipPrefix(cut).length - headLength(big)
  t.true(decoded > 0 && decoded < 300_000)
  const text = `record kept with the ${decoded} of 300000 content bytes that could be decoded: gzip member ends before its end marker`

  const r = cli('cut.warc.gz')
  t.is(r.status, 0)
  t.deepEqual(r.rows, [
    ['http://a.example/', 0, ga.length, 'cut.warc.gz'],
    ['http://big.example/', ga.length, cut.length, 'cut.warc.gz'],
  ])
  t.deepEqual(r.problems, [`warcdex: warning: cut.warc.gz: offset ${ga.length}: ${text}`])
  t.deepEqual(r.summary, summary(2, 2, 1, 0, 0, 1))

  const { rows, problems } = await api(file, { strict: true })
  t.deepEqual(rows.map((e) => [e.url, e.offset, e.length, e.truncated, e.payloadLength]), [
    ['http://a.example/', 0, ga.length, undefined, 5],
    ['http://big.example/', ga.length, cut.length, true, decoded],
  ])
  t.deepEqual(problems, [problem('warning', 'ETRUNCATED', file, ga.length, text)])

  // readRecords says the same.
  const seen = []
  const recs = []
  for await (const x of readRecords(file, { onProblem: (p) => seen.push(p) })) recs.push([x.targetUri, x.offset, x.length, x.truncated])
  t.deepEqual(recs, [
    ['http://a.example/', 0, ga.length, false],
    ['http://big.example/', ga.length, cut.length, true],
  ])
  t.deepEqual(seen, [problem('warning', 'ETRUNCATED', file, ga.length, text)])
})

test('gzip member with a cut trailer followed by more members: kept up to the next member, reading goes on', async (t) => {
  const ga = gz(warc('http://a.example/', 'alpha'))
  const gb = gz(warc('http://b.example/', 'bravo'))
  const gc = gz(warc('http://c.example/', 'charlie'))
  const cutB = gb.subarray(0, gb.length - 4) // half of the CRC-32/size trailer
  const file = put('cut-trailer.warc.gz', ga, cutB, gc)
  const text =
    'record kept with the 5 of 5 content bytes that could be decoded: gzip member checksum (CRC-32 or size) does not match its data'

  const r = cli('cut-trailer.warc.gz')
  t.is(r.status, 0)
  t.deepEqual(r.rows, [
    ['http://a.example/', 0, ga.length, 'cut-trailer.warc.gz'],
    ['http://b.example/', ga.length, cutB.length, 'cut-trailer.warc.gz'],
    ['http://c.example/', ga.length + cutB.length, gc.length, 'cut-trailer.warc.gz'],
  ])
  t.deepEqual(r.problems, [`warcdex: warning: cut-trailer.warc.gz: offset ${ga.length}: ${text}`])
  t.deepEqual(r.summary, summary(3, 3, 1, 0, 0, 1))

  const { problems } = await api(file)
  t.deepEqual(problems, [problem('warning', 'ETRUNCATED', file, ga.length, text)])
})

test('gzip member corrupted inside its record header: the record is skipped, the rest read', async (t) => {
  const ga = gz(warc('http://a.example/', 'alpha'))
  const gb = Buffer.from(gz(warc('http://b.example/', noise(4000, 2))))
  const gc = gz(warc('http://c.example/', 'charlie'))
  // Stored garbage in the deflate data right after the gzip header: nothing of b decodes.
  gb.fill(0xff, 10, 40)
  const file = put('corrupt-head.warc.gz', ga, gb, gc)

  const r = cli('corrupt-head.warc.gz')
  t.is(r.status, 1)
  t.deepEqual(r.rows, [
    ['http://a.example/', 0, ga.length, 'corrupt-head.warc.gz'],
    ['http://c.example/', ga.length + gb.length, gc.length, 'corrupt-head.warc.gz'],
  ])
  t.is(r.problems.length, 1)
  t.regex(r.problems[0], new RegExp(`^warcdex: skipped: corrupt-head\\.warc\\.gz: offset ${ga.length}: gzip member does not inflate: `))
  t.deepEqual(r.summary, summary(2, 2, 1, 1, gb.length, 0))

  const { problems } = await api(file)
  t.like(problems, [{ event: 'skipped', code: 'ECORRUPT', source: file, offset: ga.length }])
})

test('whole-file gzip cut short: whole records kept, the cut one kept or skipped by where the cut falls', async (t) => {
  const recs = ['a', 'b', 'c'].map((h, i) => warc(`http://${h}.example/`, noise(2000, 10 + i)))
  const whole = gz(Buffer.concat(recs))
  const cStart = recs[0].length + recs[1].length
  const cHead = headLength(recs[2])
  /** The longest prefix of `whole` whose decoded length falls in (lo, hi). */
  const cutTo = (lo, hi) => {
    for (let n = whole.length - 1; n > 0; n--) {
      const d = gunzipPrefix(whole.subarray(0, n)).length
      if (d > lo && d < hi) return [whole.subarray(0, n), d]
    }
    throw new Error('no cut')
  }
  const shared =
    'several records share one compressed member (whole-file gzip or single-stream xz): offsets and lengths count decoded bytes and cannot be used to seek'
  const whole2 = [
    ['http://a.example/', 0, recs[0].length - 4, false],
    ['http://b.example/', recs[0].length, recs[1].length - 4, false],
  ]

  // Cut inside c's header: c cannot be read (skipped at its decoded offset), a and b are whole.
  const [inHead, dHead] = cutTo(cStart + 10, cStart + cHead - 10)
  const f1 = put('whole-cut-head.warc.gz', inHead)
  const r1 = cli('whole-cut-head.warc.gz')
  t.is(r1.status, 1)
  t.deepEqual(r1.rows, whole2.map(([u, o, l]) => [u, o, l, 'whole-cut-head.warc.gz']))
  t.deepEqual(r1.problems, [
    `warcdex: warning: whole-cut-head.warc.gz: offset 0: ${shared}`,
    `warcdex: skipped: whole-cut-head.warc.gz: offset ${cStart}: gzip member ends before its end marker`,
  ])
  t.deepEqual(r1.summary, summary(2, 2, 1, 1, dHead - cStart, 1))
  const a1 = await api(f1)
  t.deepEqual(a1.rows.map((e) => [e.url, e.offset, e.length, e.seekable]), whole2)
  t.deepEqual(a1.problems, [
    problem('warning', 'EUNSUPPORTED', f1, 0, shared),
    problem('skipped', 'ETRUNCATED', f1, cStart, 'gzip member ends before its end marker'),
  ])

  // Cut inside c's content: c is kept with what decodes.
  const [inBody, dBody] = cutTo(cStart + cHead + 100, cStart + cHead + 1900)
  const f2 = put('whole-cut-body.warc.gz', inBody)
  const kept = `record kept with the ${dBody - cStart - cHead} of 2000 content bytes that could be decoded: gzip member ends before its end marker`
  const r2 = cli('whole-cut-body.warc.gz')
  t.is(r2.status, 0)
  t.deepEqual(r2.rows, [...whole2, ['http://c.example/', cStart, dBody - cStart]].map(([u, o, l]) => [u, o, l, 'whole-cut-body.warc.gz']))
  t.deepEqual(r2.problems, [
    `warcdex: warning: whole-cut-body.warc.gz: offset 0: ${shared}`,
    `warcdex: warning: whole-cut-body.warc.gz: offset ${cStart}: ${kept}`,
  ])
  t.deepEqual(r2.summary, summary(3, 3, 1, 0, 0, 2))
  const a2 = await api(f2)
  t.deepEqual(a2.rows.map((e) => [e.url, e.offset, e.length, e.seekable, e.truncated]), [
    ...whole2.map((x) => [...x, undefined]),
    ['http://c.example/', cStart, dBody - cStart, false, true],
  ])
})

test('xz cut at the end of the file: record kept with the bytes that decode', async (t) => {
  if (!HAS_XZ) {
    t.log('SKIPPED: the xz command is not installed')
    t.pass()
    return
  }
  const xa = xz(warc('http://a.example/', 'alpha'))
  const big = warc('http://big.example/', noise(300_000, 3))
  const xb = xz(big)
  const cut = xb.subarray(0, Math.floor(xb.length / 2))
  const file = put('cut.warc.xz', xa, cut)
  const decoded = refDecoded('xz', cut) - headLength(big)
  t.true(decoded > 0 && decoded < 300_000)
  const text = `record kept with the ${decoded} of 300000 content bytes that could be decoded: xz member ends before its end marker`

  const r = cli('cut.warc.xz')
  t.is(r.status, 0)
  t.deepEqual(r.rows, [
    ['http://a.example/', 0, xa.length, 'cut.warc.xz'],
    ['http://big.example/', xa.length, cut.length, 'cut.warc.xz'],
  ])
  t.deepEqual(r.problems, [`warcdex: warning: cut.warc.xz: offset ${xa.length}: ${text}`])
  t.deepEqual(r.summary, summary(2, 2, 1, 0, 0, 1))

  const { rows, problems } = await api(file)
  t.deepEqual(rows.map((e) => [e.offset, e.truncated, e.payloadLength]), [[0, undefined, 5], [xa.length, true, decoded]])
  t.deepEqual(problems, [problem('warning', 'ETRUNCATED', file, xa.length, text)])
})

test('xz stream with its index cut, followed by another stream: record kept, next stream read', async (t) => {
  if (!HAS_XZ) {
    t.log('SKIPPED: the xz command is not installed')
    t.pass()
    return
  }
  const xa = xz(warc('http://a.example/', 'alpha'))
  const xb = xz(warc('http://b.example/', 'bravo'))
  const xc = xz(warc('http://c.example/', 'charlie'))
  const cutB = xb.subarray(0, xb.length - 20) // the stream footer and part of its index
  const file = put('cut-index.warc.xz', xa, cutB, xc)

  const r = cli('cut-index.warc.xz')
  t.is(r.status, 0)
  t.deepEqual(r.rows, [
    ['http://a.example/', 0, xa.length, 'cut-index.warc.xz'],
    ['http://b.example/', xa.length, cutB.length, 'cut-index.warc.xz'],
    ['http://c.example/', xa.length + cutB.length, xc.length, 'cut-index.warc.xz'],
  ])
  t.is(r.problems.length, 1)
  const prefix = `cut-index.warc.xz: offset ${xa.length}: record kept with the 5 of 5 content bytes that could be decoded: xz stream does not decode: `
  t.true(r.problems[0].startsWith(`warcdex: warning: ${prefix}`), r.problems[0])
  t.deepEqual(r.summary, summary(3, 3, 1, 0, 0, 1))

  const { rows, problems } = await api(file)
  t.deepEqual(rows.map((e) => e.truncated), [undefined, true, undefined])
  t.like(problems, [{ event: 'warning', code: 'ETRUNCATED', source: file, offset: xa.length }])
})

test('zstd frame cut at the end of the file: record kept with the blocks that decode', async (t) => {
  if (!HAS_ZSTD) {
    t.log('SKIPPED: the zstd command is not installed')
    t.pass()
    return
  }
  const za = zst(warc('http://a.example/', 'alpha'))
  const big = warc('http://big.example/', noise(300_000, 4))
  const zb = zst(big)
  const cut = zb.subarray(0, Math.floor(zb.length * 0.75))
  const file = put('cut.warc.zst', za, cut)
  const decoded = refDecoded('zstd', cut) - headLength(big)
  t.true(decoded > 0 && decoded < 300_000)
  const text = `record kept with the ${decoded} of 300000 content bytes that could be decoded: zstd member ends before its end marker`

  const r = cli('cut.warc.zst')
  t.is(r.status, 0)
  t.deepEqual(r.rows, [
    ['http://a.example/', 0, za.length, 'cut.warc.zst'],
    ['http://big.example/', za.length, cut.length, 'cut.warc.zst'],
  ])
  t.deepEqual(r.problems, [`warcdex: warning: cut.warc.zst: offset ${za.length}: ${text}`])
  t.deepEqual(r.summary, summary(2, 2, 1, 0, 0, 1))

  const { rows, problems } = await api(file)
  t.deepEqual(rows.map((e) => [e.offset, e.truncated, e.payloadLength]), [[0, undefined, 5], [za.length, true, decoded]])
  t.deepEqual(problems, [problem('warning', 'ETRUNCATED', file, za.length, text)])
})

test('zstd frame cut inside its only block: the record cannot be read and is skipped; the next frame is', async (t) => {
  if (!HAS_ZSTD) {
    t.log('SKIPPED: the zstd command is not installed')
    t.pass()
    return
  }
  const za = zst(warc('http://a.example/', 'alpha'))
  const zb = zst(warc('http://b.example/', 'bravo'))
  const zc = zst(warc('http://c.example/', 'charlie'))
  const cutB = zb.subarray(0, zb.length - 8)
  const file = put('cut-block.warc.zst', za, cutB, zc)

  const r = cli('cut-block.warc.zst')
  t.is(r.status, 1)
  t.deepEqual(r.rows, [
    ['http://a.example/', 0, za.length, 'cut-block.warc.zst'],
    ['http://c.example/', za.length + cutB.length, zc.length, 'cut-block.warc.zst'],
  ])
  t.is(r.problems.length, 1)
  t.true(r.problems[0].startsWith(`warcdex: skipped: cut-block.warc.zst: offset ${za.length}: zstd frame does not decode: `), r.problems[0])
  t.deepEqual(r.summary, summary(2, 2, 1, 1, cutB.length, 0))

  // The same frame cut at the end of the file.
  const end = put('cut-block-end.warc.zst', za, cutB)
  const r2 = cli('cut-block-end.warc.zst')
  t.is(r2.status, 1)
  t.deepEqual(r2.problems, [`warcdex: skipped: cut-block-end.warc.zst: offset ${za.length}: zstd member ends before its end marker`])
  t.deepEqual(r2.summary, summary(1, 1, 1, 1, cutB.length, 0))

  const strict = await strictRun(() => indexRecords(end, { strict: true }))
  t.deepEqual(strict.before.map((e) => e.url), ['http://a.example/'])
  t.like(strict.error, { code: 'ETRUNCATED', source: end, offset: za.length })
})

// ---------------------------------------------------------------- ARC

test('ARC: spaces in the URL are kept (escaped) with a warning; a wrong length skips to the next record line', async (t) => {
  const fd = arcFiledesc()
  const spaced = arc('http://a.example/b c')
  const b = arc('http://b.example/')
  const short = arc('http://c.example/', ARC_HTTP, 10)
  const d = arc('http://d.example/')
  const file = put('bad.arc', fd, spaced, b, short, d)
  const aAt = fd.length
  const bAt = aAt + spaced.length
  const cAt = bAt + b.length
  const cLine = short.indexOf('\n') + 1
  const dAt = cAt + short.length
  const rows = [
    ['http://a.example/b%20c', aAt, spaced.length - 1],
    ['http://b.example/', bAt, b.length - 1],
    ['http://c.example/', cAt, cLine + 10],
    ['http://d.example/', dAt, d.length - 1],
  ]
  const expected = [
    ['warning', 'EBADRECORD', aAt, 'spaces in target URI replaced by %20: "http://a.example/b c"'],
    ['skipped', 'EBADRECORD', cAt + cLine + 10, 'ARC header line has the wrong number of fields: "00 OK"'],
  ]

  const r = cli('bad.arc')
  t.is(r.status, 1)
  t.deepEqual(r.rows, rows.map((x) => [...x, 'bad.arc']))
  t.deepEqual(r.problems, expected.map(([ev, , off, text]) => `warcdex: ${ev}: bad.arc: offset ${off}: ${text}`))
  // The file header is a record too (not indexed by default).
  t.deepEqual(r.summary, summary(4, 5, 1, 1, short.length - cLine - 10, 1))

  const { rows: entries, problems } = await api(file)
  t.deepEqual(entries.map((e) => [e.url, e.offset, e.length]), rows)
  t.is(entries[0].urlkey, 'example,a)/b%20c')
  // Its declared 10 bytes end inside the status line: "HTTP/1.0 2".
  t.is(entries[2].status, '2')
  t.deepEqual(problems, expected.map(([ev, code, off, text]) => problem(ev, code, file, off, text)))
})

test('ARC: a length past the end of the file keeps the record, flagged, with a warning', async (t) => {
  const fd = arcFiledesc()
  const a = arc('http://a.example/')
  const long = arc('http://b.example/', ARC_HTTP, 500)
  const file = put('long.arc', fd, a, long)
  const bAt = fd.length + a.length
  const got = long.length - (long.indexOf('\n') + 1)
  const text = `record content ends after ${got} of 500 bytes (ARC length field)`

  const r = cli('long.arc')
  t.is(r.status, 0)
  t.deepEqual(r.rows, [
    ['http://a.example/', fd.length, a.length - 1, 'long.arc'],
    ['http://b.example/', bAt, long.length, 'long.arc'],
  ])
  t.deepEqual(r.problems, [`warcdex: warning: long.arc: offset ${bAt}: ${text}`])
  t.deepEqual(r.summary, summary(2, 3, 1, 0, 0, 1))

  const { rows, problems } = await api(file)
  t.deepEqual(rows.map((e) => e.truncated), [undefined, true])
  t.deepEqual(problems, [problem('warning', 'ETRUNCATED', file, bAt, text)])
})

// ---------------------------------------------------------------- headers

test('non-UTF-8 bytes in headers and URLs: read as ISO-8859-1 with a warning naming the record', async (t) => {
  const latin1 = warc('http://a.example/caf\xe9', 'alpha', { extra: 'X-Note: na\xefve\r\n' })
  const utf8 = warc(Buffer.from('http://b.example/caf\u00e9', 'utf8').toString('latin1'), 'bravo')
  const file = put('latin1.warc', latin1, utf8)
  const arcFile = put('latin1.arc', arcFiledesc(), arc('http://c.example/\xfcber'))
  const note = 'record header has bytes that are not UTF-8 (read as ISO-8859-1)'

  const r = cli('latin1.warc', 'latin1.arc')
  t.is(r.status, 0)
  t.deepEqual(r.rows, [
    ['http://a.example/caf\u00e9', 0, latin1.length - 4, 'latin1.warc'],
    ['http://b.example/caf\u00e9', latin1.length, utf8.length - 4, 'latin1.warc'],
    ['http://c.example/\u00fcber', arcFiledesc().length, arc('http://c.example/\xfcber').length - 1, 'latin1.arc'],
  ])
  t.deepEqual(r.problems, [
    `warcdex: warning: latin1.warc: offset 0: ${note}`,
    `warcdex: warning: latin1.arc: offset ${arcFiledesc().length}: ${note}`,
  ])
  t.deepEqual(r.summary, summary(3, 4, 2, 0, 0, 2))

  const { rows, problems } = await api(file)
  // Same key whichever way the URL was encoded.
  t.deepEqual(rows.map((e) => [e.urlkey, e.url]), [
    ['example,a)/caf%c3%a9', 'http://a.example/caf\u00e9'],
    ['example,b)/caf%c3%a9', 'http://b.example/caf\u00e9'],
  ])
  t.deepEqual(problems, [problem('warning', 'EBADRECORD', file, 0, note)])
  const recs = []
  for await (const x of readRecords(file, { onProblem: () => {} })) recs.push(x.headers.get('X-Note'))
  t.deepEqual(recs, ['na\u00efve', undefined])
})

test('headers of megabytes: 3 MiB is read; a 5 MiB line or a 6 MiB block is skipped with its offset', async (t) => {
  const a = warc('http://a.example/', 'alpha')
  const big = warc('http://big.example/', 'bravo', { extra: `X-Big: ${'x'.repeat(3 << 20)}\r\n` })
  const line = warc('http://line.example/', 'charlie', { extra: `X-Line: ${'y'.repeat(5 << 20)}\r\n` })
  const d = warc('http://d.example/', 'delta')
  const block = warc('http://block.example/', 'echo', { extra: 'X-Many: z\r\n'.repeat(600_000) })
  const f = warc('http://f.example/', 'foxtrot')
  const file = put('big-headers.warc', a, big, line, d, block, f)
  const lineAt = a.length + big.length
  const dAt = lineAt + line.length
  const blockAt = dAt + d.length
  const fAt = blockAt + block.length
  const rows = [
    ['http://a.example/', 0, a.length - 4],
    ['http://big.example/', a.length, big.length - 4],
    ['http://d.example/', dAt, d.length - 4],
    ['http://f.example/', fAt, f.length - 4],
  ]
  const expected = [
    [lineAt, `header line longer than ${MAX_HEADER} bytes`],
    [blockAt, `header block larger than ${MAX_HEADER} bytes`],
  ]

  const r = cli('big-headers.warc')
  t.is(r.status, 1)
  t.deepEqual(r.rows, rows.map((x) => [...x, 'big-headers.warc']))
  t.deepEqual(r.problems, expected.map(([off, text]) => `warcdex: skipped: big-headers.warc: offset ${off}: ${text}`))
  t.deepEqual(r.summary, summary(4, 4, 1, 2, line.length + block.length, 0))

  const { r3, problems } = await api(file)
  t.deepEqual(r3, rows)
  t.deepEqual(problems, expected.map(([off, text]) => problem('skipped', 'EBADRECORD', file, off, text)))
})

// ---------------------------------------------------------------- whole inputs

test('an empty file is a warning, not a failure', async (t) => {
  const file = put('empty.warc')
  const r = cli('empty.warc')
  t.is(r.status, 0)
  t.is(r.stdout, '')
  t.deepEqual(r.problems, ['warcdex: warning: empty.warc: offset 0: empty file'])
  t.deepEqual(r.summary, summary(0, 0, 1, 0, 0, 1))

  const expected = [problem('warning', 'ENOTARCHIVE', file, 0, 'empty file')]
  t.deepEqual(await api(file, { strict: true }), { rows: [], problems: expected, r3: [] })
  const seen = []
  const recs = []
  for await (const x of readRecords(file, { strict: true, onProblem: (p) => seen.push(p) })) recs.push(x)
  t.deepEqual([recs, seen], [[], expected])
})

test('files that are not archives: skipped with what they are, at offset 0', async (t) => {
  const text = put('notes.warc', 'hello, this is not an archive\nat all\n')
  const png = put('image.warc', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), noise(200, 5))
  put('frame.warc', Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x64, 0x40, 0xa7, 0, 0, 0, 0]))
  put('packed.warc', Buffer.from('BZh91AY&SY'), noise(50, 6))
  put('good.warc', warc('http://good.example/', 'fine'))

  const r = cli('notes.warc', 'image.warc', 'frame.warc', 'packed.warc', 'good.warc')
  t.is(r.status, 1)
  t.deepEqual(r.rows.map((x) => x[0]), ['http://good.example/'])
  t.deepEqual(r.problems, [
    'warcdex: skipped: notes.warc: offset 0: not the start of a WARC or ARC record: "hello, this is not an archive"',
    'warcdex: skipped: image.warc: offset 0: not the start of a WARC or ARC record: "\ufffdPNG"',
    'warcdex: skipped: frame.warc: offset 0: LZ4-framed input is not supported (decompress it with lz4 -d first)',
    'warcdex: skipped: packed.warc: offset 0: bzip2-compressed archives are not supported (decompress with bzip2 -d first)',
  ])
  // The text file and the image are read and passed over; the other two are refused unread.
  t.deepEqual(r.summary, summary(1, 1, 5, 4, fs.statSync(text).size + fs.statSync(png).size, 0))

  const { rows, problems } = await api(text)
  t.deepEqual(rows, [])
  t.deepEqual(problems, [problem('skipped', 'EBADRECORD', text, 0, 'not the start of a WARC or ARC record: "hello, this is not an archive"')])
  const strict = await strictRun(() => readRecords(path.join(DIR, 'frame.warc'), { strict: true }))
  t.like(strict.error, { name: 'ArchiveError', code: 'ENOTARCHIVE', offset: 0, source: path.join(DIR, 'frame.warc') })
})

test('a directory: its archives are read in name order, other files and names left out', async (t) => {
  const x = warc('http://x.example/', 'in a')
  const y = warc('http://y.example/', 'in b')
  const z = warc('http://z.example/', 'in sub.warc')
  put('coll/a/x.warc.gz', gz(x))
  put('coll/b.warc', y)
  put('coll/notes.txt', 'not an archive, not read')
  put('coll/sub.warc/z.warc', z) // a directory with an archive's name is searched, not read
  fs.mkdirSync(path.join(DIR, 'coll/empty-dir'))

  const r = cli('coll')
  t.is(r.status, 0)
  t.deepEqual(r.rows, [
    ['http://x.example/', 0, gz(x).length, 'x.warc.gz'],
    ['http://y.example/', 0, y.length - 4, 'b.warc'],
    ['http://z.example/', 0, z.length - 4, 'z.warc'],
  ])
  t.deepEqual(r.problems, [])
  t.deepEqual(r.summary, summary(3, 3, 3, 0, 0, 0))

  const { rows } = await api(path.join(DIR, 'coll'))
  t.deepEqual(rows.map((e) => e.url), ['http://x.example/', 'http://y.example/', 'http://z.example/'])

  // A directory with no archives: said so, and bad input (nothing to index).
  const none = cli(path.join('coll', 'empty-dir'))
  t.is(none.status, 1)
  t.regex(none.stderr, /no WARC or ARC files in .*empty-dir/)

  // readRecords reads one file; a directory is an input it cannot read.
  const dir = path.join(DIR, 'coll')
  const strict = await strictRun(() => readRecords(dir, { strict: true }))
  t.deepEqual(strict.before, [])
  t.true(strict.error instanceof ArchiveError)
  t.like(strict.error, { code: 'EIO', source: dir, offset: 0 })
  t.regex(strict.error.message, /^.*coll: offset 0: .*[Ii]s a directory/)
})

test('several bad files in one run: each reported, the good ones indexed, counts added up', async (t) => {
  const a = warc('http://a.example/', 'alpha')
  const junk = Buffer.from('junk\n')
  put('many/1-good.warc', a)
  put('many/2-empty.warc')
  put('many/3-garbage.warc', a, junk, a)
  put('many/4-nolength.warc', warc('http://n.example/', 'x', { length: null }))
  const r = cli('many')
  t.is(r.status, 1)
  t.deepEqual(r.rows.map((x) => [x[3], x[1]]), [
    ['1-good.warc', 0],
    ['3-garbage.warc', 0],
    ['3-garbage.warc', a.length + junk.length],
  ])
  const name = (f) => path.join('many', f)
  t.deepEqual(r.problems, [
    `warcdex: warning: ${name('2-empty.warc')}: offset 0: empty file`,
    `warcdex: skipped: ${name('3-garbage.warc')}: offset ${a.length}: not the start of a WARC or ARC record: "junk"`,
    `warcdex: skipped: ${name('4-nolength.warc')}: offset 0: WARC record has no Content-Length`,
  ])
  const n = warc('http://n.example/', 'x', { length: null })
  t.deepEqual(r.summary, summary(3, 3, 4, 2, junk.length + n.length, 1))
})

// ---------------------------------------------------------------- the native side

test('a stream that fails mid-record: one EIO problem at that record, the records before kept', async (t) => {
  const a = warc('http://a.example/', 'alpha')
  const b = warc('http://b.example/', 'x'.repeat(1000))
  async function* failing() {
    yield a
    yield b.subarray(0, 300)
    throw new Error('disk on fire')
  }
  const { r3, problems } = await api(Readable.from(failing()), { name: 'failing.warc' })
  t.deepEqual(r3, [['http://a.example/', 0, a.length - 4]])
  t.deepEqual(problems, [problem('skipped', 'EIO', 'failing.warc', a.length, 'reading the input stream failed: disk on fire')])
})

test('a Rust panic becomes a JavaScript error, not a crash', (t) => {
  const native = createRequire(import.meta.url)('../native/index.cjs')
  const error = t.throws(() => native.panicForTest())
  t.true(error instanceof Error)
  t.regex(error.message, /internal error in panicForTest.*deliberate panic/)
  // The addon still works afterwards.
  t.is(typeof native.nativeVersion(), 'string')
})
