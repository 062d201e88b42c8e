// The warcdex command: help, exit codes, stdout/stderr, inputs, and live
// agreement with cdxj-indexer on generated collections (when it is installed).
import test from 'ava'
import { spawnSync } from 'node:child_process'
import { rmSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { generateSample } from '../dist/index.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'warcdex.js')
const dir = mkdtempSync(join(tmpdir(), 'warcdex-cli-'))
test.after.always(() => rmSync(dir, { recursive: true, force: true }))

const run = (args, opts = {}) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: dir, ...opts })

const haveCdxjIndexer = spawnSync('cdxj-indexer', ['--help'], { encoding: 'utf8' }).status === 0

let gzFiles
let arcFiles
let noDigestFiles
test.before(async () => {
  gzFiles = await generateSample(join(dir, 'gz'), { files: 2, targetBytes: 1_500_000, seed: 11 })
  arcFiles = await generateSample(join(dir, 'arc'), { files: 1, targetBytes: 1_000_000, seed: 12, format: 'arc.gz' })
  noDigestFiles = await generateSample(join(dir, 'nodigest'), { files: 1, targetBytes: 1_000_000, seed: 13, format: 'warc', omitPayloadDigest: true })
})

test('--help on every command, exit 0, on stdout', (t) => {
  for (const args of [['--help'], ['index', '--help'], ['sample', '--help']]) {
    const r = run(args)
    t.is(r.status, 0, args.join(' '))
    t.regex(r.stdout, /Usage: warcdex/)
    t.is(r.stderr, '')
  }
})

test('usage errors exit 2 with a message on stderr', (t) => {
  for (const args of [[], ['frobnicate'], ['index'], ['index', '--format', 'xml', 'x'], ['index', '--bogus', 'x'], ['index', '--strict', '--skip-bad', 'x']]) {
    const r = run(args)
    t.is(r.status, 2, args.join(' '))
    t.is(r.stdout, args.length === 0 ? r.stdout : '')
    t.regex(r.stderr + r.stdout, /warcdex|Usage/)
  }
})

test('data on stdout, summary on stderr, no progress bar when stderr is not a terminal', (t) => {
  const r = run(['index', join(dir, 'gz')])
  t.is(r.status, 0)
  const lines = r.stdout.trim().split('\n')
  t.true(lines.length > 50)
  t.true(lines.every((l) => /^\S+ \d{14} \{"/.test(l)))
  t.regex(r.stderr, new RegExp(`^warcdex: ${lines.length} rows from \\d+ records in 2 files; 0 skipped \\(0 bytes\\), 0 warnings; `))
  t.false(r.stderr.includes('\r'), 'no progress bar')
  t.is(run(['index', '-q', join(dir, 'gz')]).stderr, '')
})

test('a list of paths on stdin with -', (t) => {
  const list = gzFiles.map((f) => f.path).join('\n') + '\n'
  const a = run(['index', '-'], { input: list })
  const b = run(['index', join(dir, 'gz')])
  t.is(a.status, 0)
  t.is(a.stdout, b.stdout)
})

test('--output writes the file, --sort sorts it', (t) => {
  const out = join(dir, 'sorted.cdxj')
  const r = run(['index', '--sort', '-o', out, join(dir, 'gz')])
  t.is(r.status, 0)
  t.is(r.stdout, '')
  const lines = readFileSync(out, 'utf8').trim().split('\n')
  t.deepEqual(lines, [...new Set(lines)].sort())
})

test('missing input exits 1 and names it', (t) => {
  const r = run(['index', join(dir, 'does-not-exist.warc')])
  t.is(r.status, 1)
  t.regex(r.stderr, /does-not-exist\.warc/)
})

test('--verify reports a wrong digest with its offset and exits 1', (t) => {
  const body = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello'
  const rec = (digest) =>
    `WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: 2020-01-01T00:00:00Z\r\nWARC-Target-URI: http://a.example/\r\n` +
    `WARC-Payload-Digest: ${digest}\r\nContent-Length: ${body.length}\r\n\r\n${body}\r\n\r\n`
  const good = rec('sha1:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N')
  const bad = rec('sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
  writeFileSync(join(dir, 'v.warc'), good + bad)
  const ok = run(['index', '--verify', join(dir, 'v.warc')])
  t.is(ok.status, 1)
  const warnings = ok.stderr.split('\n').filter((l) => l.includes('mismatch'))
  t.is(warnings.length, 1)
  t.true(warnings[0].includes(`offset ${good.length}:`), warnings[0])
  t.regex(warnings[0], /WARC-Payload-Digest mismatch: record says sha1:A{32}, content is sha1:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N/)
  // Without --verify the stated digest is trusted and written.
  const plain = run(['index', join(dir, 'v.warc')])
  t.is(plain.status, 0)
  t.regex(plain.stdout, /sha1:A{32}/)
})

test('a progress bar with bytes, rows/s and ETA on a terminal', (t) => {
  const probe = spawnSync('script', ['--version'], { encoding: 'utf8' })
  if (probe.status !== 0) {
    t.log('SKIPPED: script(1) is not available to provide a terminal')
    return t.pass()
  }
  const cmd = `${process.execPath} ${BIN} index -o ${join(dir, 'tty.cdxj')} ${join(dir, 'gz')}`
  const r = spawnSync('script', ['-qfec', cmd, '/dev/null'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '120' } })
  t.is(r.status, 0, r.stdout)
  t.regex(r.stdout, /warcdex: \d+ rows from/)
  // The bar is drawn at most every 100 ms; a tiny job may finish before the first frame.
  if (/rows\/s/.test(r.stdout)) t.regex(r.stdout, /\[[#.]{24}\]\s+\d+% .* rows\/s\s+ETA/)
})

for (const [name, args, files] of [
  ['default CDXJ of .warc.gz', [], () => gzFiles],
  ['--all records', ['--all'], () => gzFiles],
  ['CDX-11', ['-f', 'cdx11'], () => gzFiles],
  ['CDX-9', ['-f', 'cdx9'], () => gzFiles],
  ['sorted', ['-s'], () => gzFiles],
  ['ARC', [], () => arcFiles],
  ['computed digests (no WARC-Payload-Digest)', [], () => noDigestFiles],
]) {
  test(`identical to cdxj-indexer: ${name}`, (t) => {
    if (!haveCdxjIndexer) {
      t.log('SKIPPED: cdxj-indexer is not installed (pip install cdxj-indexer==1.5.0)')
      return t.pass()
    }
    const paths = files().map((f) => f.path)
    const refArgs = args.map((a) => ({ '--all': '--records=all', '-f': '', cdx11: '--cdx11', cdx9: '--cdx09' })[a] ?? a).filter(Boolean)
    const ref = spawnSync('cdxj-indexer', [...refArgs, ...paths], { encoding: 'utf8', maxBuffer: 1 << 28 })
    t.is(ref.status, 0, ref.stderr)
    const ours = run(['index', ...args, ...paths], { maxBuffer: 1 << 28 })
    t.is(ours.status, 0, ours.stderr)
    t.true(ours.stdout.length > 1000)
    t.is(ours.stdout, ref.stdout)
  })
}

test('--jobs 2 splits a large .warc.gz at record members and writes the same index', async (t) => {
  const [big] = await generateSample(join(dir, 'big'), { files: 1, targetBytes: 110_000_000, seed: 21 })
  t.true(big.bytes > 48_000_000, 'large enough to be split')
  const one = run(['index', '-q', big.path], { maxBuffer: 1 << 28 })
  const two = run(['index', '-q', '-j', '2', big.path], { maxBuffer: 1 << 28 })
  t.is(one.status, 0)
  t.is(two.status, 0)
  t.true(one.stdout.length > 10_000)
  t.is(two.stdout, one.stdout)
  const many = run(['index', '-q', '-j', '2', join(dir, 'gz'), join(dir, 'arc')])
  t.is(many.stdout, run(['index', '-q', join(dir, 'gz'), join(dir, 'arc')]).stdout)
})

test('a directory without archives exits 1 and says so', (t) => {
  const empty = mkdtempSync(join(dir, 'empty-'))
  writeFileSync(join(empty, 'notes.txt'), 'not an archive')
  const r = run(['index', empty])
  t.is(r.status, 1)
  t.is(r.stdout, '')
  t.regex(r.stderr, /no WARC or ARC files in .*empty-/)
})
