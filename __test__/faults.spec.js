// Faults a long run meets: SIGKILL at any moment, a full disk (output and
// spill directories), SIGINT/SIGTERM, inputs that change or vanish while
// read, unreadable inputs. Each test checks what a user finds afterwards:
// the previous output or the complete new one, never a torn file under a
// final name, no temporary files left once a later run has cleaned up, and
// the same rows as an uninterrupted run.
import test from 'ava'
import { spawn, spawnSync } from 'node:child_process'
import {
  appendFileSync, chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync,
  rmSync, statSync, truncateSync, unlinkSync, writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'

import { DuckDBInstance } from '@duckdb/node-api'

import { generateDump, generateSample } from '../dist/index.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'warcdex.js')
const dir = mkdtempSync(join(tmpdir(), 'warcdex-faults-'))
const at = (...p) => join(dir, ...p)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

const mounts = []
test.after.always(() => {
  for (const m of mounts) spawnSync('umount', ['-l', m])
  rmSync(dir, { recursive: true, force: true })
})

function start(args, opts = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], ...opts })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const done = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
  return { child, done }
}

const run = (args, opts) => start(args, opts).done

/** Entries of `d` whose names mark them as work in progress (ours: `.NAME.warcdex-...`). */
const temporaries = (d) => (existsSync(d) ? readdirSync(d).filter((n) => n.includes('.warcdex-') || n === '_temporary') : [])

/** Every file below `d`. */
function filesBelow(d) {
  if (!existsSync(d)) return []
  return readdirSync(d, { recursive: true }).map((n) => join(d, n)).filter((p) => statSync(p).isFile())
}

/** Rows and a checksum of a dataset as DuckDB reads it; null when there is no dataset. */
async function datasetState(ds) {
  const files = filesBelow(ds).filter((f) => f.endsWith('.parquet'))
  if (files.length === 0) return null
  for (const f of files) {
    const b = readFileSync(f)
    if (b.subarray(0, 4).toString() !== 'PAR1' || b.subarray(-4).toString() !== 'PAR1') throw new Error(`torn Parquet file under its final name: ${f}`)
  }
  const db = await DuckDBInstance.create(':memory:')
  const conn = await db.connect()
  try {
    const r = await conn.runAndReadAll(
      `SELECT count(*)::BIGINT, sum(warc_record_offset)::BIGINT, count(DISTINCT url_surtkey)::BIGINT FROM read_parquet('${ds}/**/*.parquet', hive_partitioning = true)`,
    )
    return r.getRowsJson()[0].map(String).join(' ')
  } finally {
    conn.closeSync()
  }
}

// Inputs: an unsorted Common-Crawl-style CDXJ long enough for a parquet run
// of about a second (with spills), WARCs for index runs, a page-dump segment.
let cdxj
let smallCdxj
let warcs
let segment
test.before(async () => {
  const line = (i) => {
    const h = (i * 2654435761) % 50021
    const ts = `2024${String(1 + (i % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}120000`
    const url = `https://host${h}.example.org/page/${i}?q=${i % 7}`
    return `org,example,host${h})/page/${i}?q=${i % 7} ${ts} {"url": "${url}", "mime": "text/html", "status": "${i % 9 ? 200 : 404}", "digest": "sha1:AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH", "length": "${1000 + (i % 5000)}", "offset": "${i * 3000}", "filename": "crawl-data/CC-MAIN-2024-10/segments/1/warc/CC-MAIN-20240101-${String(i % 64).padStart(5, '0')}.warc.gz"}\n`
  }
  cdxj = at('big.cdxj')
  const chunk = []
  for (let i = 0; i < 400_000; i++) {
    chunk.push(line(i))
    if (chunk.length === 50_000) appendFileSync(cdxj, chunk.splice(0).join(''))
  }
  smallCdxj = at('small.cdxj')
  writeFileSync(smallCdxj, Array.from({ length: 1000 }, (_, i) => line(1_000_000 + i)).join(''))
  warcs = (await generateSample(at('warcs'), { files: 3, targetBytes: 25_000_000, seed: 5 })).map((f) => f.path)
  const report = await generateDump(at('dump'), { segments: 1, idsPerSegment: 3000, seed: 5 })
  segment = report.segments[0].data
})

/** Kill points spread over a run that takes `ms`: from start-up to just past the end. */
const killPoints = (ms) => Array.from({ length: 11 }, (_, i) => Math.round(20 + (i * ms * 1.05) / 10))

test.serial('SIGKILL during parquet: the dataset is the old one or the whole new one; a re-run cleans up and gives the same rows', async (t) => {
  const ref = at('pq-ref')
  const t0 = Date.now()
  const r0 = await run(['parquet', '-q', '--sort-memory', '8', cdxj, ref])
  const ms = Date.now() - t0
  t.is(r0.code, 0, r0.stderr)
  t.true(existsSync(join(ref, '_SUCCESS')))
  const want = await datasetState(ref)
  const old = at('pq-old')
  t.is((await run(['parquet', '-q', smallCdxj, old])).code, 0)
  const oldState = await datasetState(old)
  t.not(oldState, want)

  const ds = at('pq')
  let midway = 0
  const seen = new Set()
  for (const delay of killPoints(ms)) {
    rmSync(ds, { recursive: true, force: true })
    spawnSync('cp', ['-a', old, ds])
    const { child, done } = start(['parquet', '-q', '--sort-memory', '8', '--mode', 'overwrite', cdxj, ds])
    await sleep(delay)
    if (temporaries(dir).some((n) => n.startsWith('.pq.warcdex-'))) midway++
    child.kill('SIGKILL')
    await done
    const state = await datasetState(ds)
    t.true(state === oldState || state === want, `killed at ${delay} ms: ${state}`)
    seen.add(state === want ? 'new' : 'old')
    // The next run removes what the killed one left and gives the full rows.
    const again = await run(['parquet', '--sort-memory', '8', '--mode', 'overwrite', cdxj, ds])
    t.is(again.code, 0, again.stderr)
    t.is(await datasetState(ds), want, `re-run after a kill at ${delay} ms`)
    t.deepEqual(temporaries(dir).filter((n) => n.startsWith('.pq.')), [], `leftovers after the re-run (kill at ${delay} ms)`)
  }
  t.true(midway >= 5, `${midway} of 11 kills came while the dataset was being staged`)
  t.deepEqual([...seen].sort(), ['new', 'old'])
  t.log(`parquet run ${ms} ms; ${midway} of 11 kills mid-run`)
})

test.serial('SIGKILL during index -o: the file is the old one or the whole new index; a re-run notes and removes the leftover', async (t) => {
  const ref = at('ref.cdxj')
  const t0 = Date.now()
  t.is((await run(['index', '-q', '--verify', '-o', ref, ...warcs, ...warcs, ...warcs])).code, 0)
  const ms = Date.now() - t0
  const want = readFileSync(ref, 'utf8')
  t.true(want.split('\n').length > 1000)
  const out = at('idx.cdxj')
  let midway = 0
  let noted = 0
  for (const delay of killPoints(ms)) {
    writeFileSync(out, 'old\n')
    const { child, done } = start(['index', '-q', '--verify', '--force', '-o', out, ...warcs, ...warcs, ...warcs])
    await sleep(delay)
    if (temporaries(dir).some((n) => n.startsWith('.idx.cdxj.warcdex-'))) midway++
    child.kill('SIGKILL')
    await done
    const got = readFileSync(out, 'utf8')
    t.true(got === 'old\n' || got === want, `killed at ${delay} ms: ${got.length} bytes`)
    const again = await run(['index', '--force', '-o', out, ...warcs, ...warcs, ...warcs])
    t.is(again.code, 0, again.stderr)
    if (/note: removed .*\.idx\.cdxj\.warcdex-.*interrupted run/.test(again.stderr)) noted++
    t.is(readFileSync(out, 'utf8'), want)
    t.deepEqual(temporaries(dir).filter((n) => n.startsWith('.idx.')), [])
  }
  t.true(midway >= 5, `${midway} of 11 kills came while the index was being written`)
  t.true(noted >= midway - 1, `${noted} re-runs noted a removed leftover`)
})

test.serial('SIGKILL during dump to-warc: the WARC is the old file or complete', async (t) => {
  const ref = at('ref.warc.gz')
  const t0 = Date.now()
  t.is((await run(['dump', 'to-warc', '-q', segment, '-o', ref])).code, 0)
  const ms = Date.now() - t0
  const records = (p) => (gunzipSync(readFileSync(p)).toString('latin1').match(/^WARC\/1\.1\r$/gm) ?? []).length
  const want = records(ref)
  t.true(want > 1000)
  const out = at('pages.warc.gz')
  let midway = 0
  for (const delay of killPoints(ms)) {
    writeFileSync(out, 'old\n')
    const { child, done } = start(['dump', 'to-warc', '-q', '--force', segment, '-o', out])
    await sleep(delay)
    if (temporaries(dir).some((n) => n.startsWith('.pages.warc.gz.warcdex-'))) midway++
    child.kill('SIGKILL')
    await done
    const got = readFileSync(out)
    t.true(got.toString() === 'old\n' || records(out) === want, `killed at ${delay} ms`)
    t.is((await run(['dump', 'to-warc', '-q', '--force', segment, '-o', out])).code, 0)
    t.is(records(out), want)
    t.deepEqual(temporaries(dir).filter((n) => n.startsWith('.pages.')), [])
  }
  t.true(midway >= 5, `${midway} of 11 kills came while the WARC was being written`)
})

test.serial('SIGINT and SIGTERM: exit 130 and 143, nothing published, no temporary files left', async (t) => {
  const cases = [
    ['parquet', (out) => ['parquet', '--sort-memory', '8', cdxj, out], '.sig-pq'],
    ['index', (out) => ['index', '--verify', '-o', out, ...warcs], '.sig-idx'],
    ['to-warc', (out) => ['dump', 'to-warc', segment, '-o', out], '.sig-warc'],
  ]
  for (const [name, args, prefix] of cases) {
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
      const out = at(prefix.slice(1))
      rmSync(out, { recursive: true, force: true })
      const { child, done } = start(args(out))
      // Wait until the job has started writing, then signal it.
      for (let i = 0; i < 400 && !temporaries(dir).some((n) => n.startsWith(prefix)); i++) await sleep(5)
      t.true(temporaries(dir).some((n) => n.startsWith(prefix)), `${name}: writing had started`)
      child.kill(signal)
      const r = await done
      t.is(r.code, code, `${name} ${signal}: ${r.stderr}`)
      t.false(existsSync(out), `${name} ${signal}: nothing under the final name`)
      t.deepEqual(temporaries(dir).filter((n) => n.startsWith(prefix)), [], `${name} ${signal}: temporaries removed`)
    }
  }
})

/** A small filesystem of its own (tmpfs); null (the test passes, saying SKIPPED) where this process may not mount. */
function smallDisk(t, name, kib) {
  const m = at(name)
  mkdirSync(m, { recursive: true })
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', m], { encoding: 'utf8' })
  if (r.status !== 0) {
    t.log(`SKIPPED: cannot mount a small tmpfs here (needs root): ${r.stderr.trim()}`)
    t.pass()
    return null
  }
  mounts.push(m)
  return m
}

test.serial('disk full in the output directory: exit 3 naming the path, nothing torn, no temporaries', async (t) => {
  const disk = smallDisk(t, 'full-out', 256)
  if (!disk) return
  // The dataset beside others on the full disk, then the mount point itself
  // as the dataset (staged in _temporary/ there).
  for (const [args, target] of [
    [['parquet', cdxj, join(disk, 'ds')], join(disk, 'ds')],
    [['parquet', cdxj, disk], disk],
    [['index', '-o', join(disk, 'out.cdxj'), ...warcs], join(disk, 'out.cdxj')],
    [['dump', 'to-warc', segment, '-o', join(disk, 'pages.warc.gz')], join(disk, 'pages.warc.gz')],
  ]) {
    const r = await run(args)
    t.is(r.code, 3, `${args[0]}: ${r.stderr}`)
    t.regex(r.stderr, new RegExp(`${disk.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^ ]*: .*(No space left on device|os error 28)`), args[0])
    if (target === disk) t.deepEqual(readdirSync(disk), [], 'the mount point is as it was')
    else t.false(existsSync(target), `${target}: nothing under the final name`)
    t.deepEqual(temporaries(disk), [])
  }
})

test.serial('disk full in the spill directory: exit 3 naming it, no output, spill files gone', async (t) => {
  const disk = smallDisk(t, 'full-tmp', 1024)
  if (!disk) return
  const out = at('spill-ds')
  const r = await run(['parquet', '--sort-memory', '1', '--tmp-dir', disk, cdxj, out])
  t.is(r.code, 3, r.stderr)
  t.regex(r.stderr, /spilling sorted rows: .*(No space left on device|os error 28)/)
  t.true(r.stderr.includes(disk))
  t.false(existsSync(out))
  t.deepEqual(temporaries(dir).filter((n) => n.startsWith('.spill-ds')), [])
  t.deepEqual(readdirSync(disk), [], 'spilled runs are unlinked files: nothing stays on the disk')
  const df = spawnSync('df', ['--output=used', disk], { encoding: 'utf8' }).stdout.trim().split('\n').pop().trim()
  t.is(df, '0', 'their space is free again')
})

test.serial('an archive still being written, growing or shrinking while read: whole records indexed, the rest reported, no crash', async (t) => {
  const src = warcs[0]
  const ref = await run(['index', src])
  const all = new Set(ref.stdout.split('\n').filter(Boolean))
  const size = statSync(src).size

  // Cut as a crawler leaves it mid-write.
  const cut = at('writing.warc.gz')
  copyFileSync(src, cut)
  truncateSync(cut, Math.floor(size * 0.6))
  const r1 = await run(['index', cut])
  t.is(r1.signal, null)
  t.is(r1.code, 0, 'a record cut short is kept, flagged with a warning')
  t.regex(r1.stderr, /warning: .*writing\.warc\.gz: offset \d+: record kept with the \d+ of \d+ content bytes/)
  const rows1 = r1.stdout.split('\n').filter(Boolean)
  t.true(rows1.length > all.size / 3)
  const unknown = rows1.filter((row) => !all.has(row.replace('writing.warc.gz', 'sample-00000.warc.gz')))
  t.true(unknown.length <= 1 && (unknown.length === 0 || unknown[0] === rows1.at(-1)), `rows not in the full index: ${unknown.length}`)

  // Grows while read: the rest is appended in pieces during the run.
  const grow = at('growing.warc.gz')
  copyFileSync(src, grow)
  truncateSync(grow, Math.floor(size * 0.3))
  const bytes = readFileSync(src)
  const { done } = start(['index', grow])
  for (let pos = Math.floor(size * 0.3); pos < size; pos += 256 << 10) {
    appendFileSync(grow, bytes.subarray(pos, Math.min(size, pos + (256 << 10))))
    await sleep(2)
  }
  const r2 = await done
  t.is(r2.signal, null, 'no crash')
  t.true(r2.code === 0 || r2.code === 1)
  // A record read while only part of it was there is kept, cut, with a
  // warning at its offset; every other row is the full index's.
  for (const row of r2.stdout.split('\n').filter(Boolean)) {
    if (all.has(row.replaceAll('growing.warc.gz', 'sample-00000.warc.gz'))) continue
    const offset = /"offset": "(\d+)"/.exec(row)?.[1]
    t.true(r2.stderr.includes(`growing.warc.gz: offset ${offset}:`), `a row unlike the full index's, without a warning: ${row}`)
  }

  // Shrinks while read.
  const shrink = at('shrinking.warc.gz')
  copyFileSync(src, shrink)
  const s = start(['index', shrink, warcs[1]])
  await sleep(60)
  truncateSync(shrink, Math.floor(size * 0.2))
  const r3 = await s.done
  t.is(r3.signal, null, 'no crash')
  t.true(r3.code === 0 || r3.code === 1)
  const other = (await run(['index', warcs[1]])).stdout
  t.true(r3.stdout.endsWith(other), 'the next input is indexed in full')
})

test.serial('unreadable inputs: a missing file, one that disappears mid-run, one without permission are reported; the others are processed', async (t) => {
  const [a, b, c] = warcs
  const rowsOf = async (files) => (await run(['index', ...files])).stdout

  const missing = await run(['index', a, at('no-such.warc.gz'), c])
  t.is(missing.code, 1)
  t.regex(missing.stderr, /no-such\.warc\.gz: cannot open/)
  t.is(missing.stdout, await rowsOf([a, c]))

  const pq = await run(['parquet', a, at('no-such.cdxj'), at('pq-missing')])
  t.is(pq.code, 1)
  t.regex(pq.stderr, /no-such\.cdxj: cannot open/)
  t.true(existsSync(join(at('pq-missing'), '_SUCCESS')))

  // Disappears after the run started (while the first, large input is read).
  const gone = at('gone.warc.gz')
  copyFileSync(b, gone)
  const big = at('big-first.warc.gz')
  for (const f of warcs) appendFileSync(big, readFileSync(f))
  const { child, done } = start(['index', '--verify', big, gone, c], { stdio: ['ignore', 'pipe', 'pipe'] })
  for (let i = 0; i < 400 && child.exitCode === null; i++) {
    // The list of inputs is read; the first input's rows are coming.
    await sleep(5)
    if (i >= 8) break
  }
  unlinkSync(gone)
  const r = await done
  t.is(r.code, 1, r.stderr)
  t.regex(r.stderr, /gone\.warc\.gz.*(No such file|cannot open)/)
  t.true(r.stdout.endsWith(await rowsOf([c])), 'the input after it is indexed')

  // Permission denied: only observable for a user other than root.
  const setpriv = spawnSync('setpriv', ['--version']).status === 0 && process.getuid?.() === 0
  if (!setpriv) {
    t.log('SKIPPED (permission part): needs root and setpriv to run as another user')
    return
  }
  const locked = at('locked.warc.gz')
  copyFileSync(b, locked)
  chmodSync(locked, 0o000)
  chmodSync(dir, 0o755)
  const asNobody = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, 'index', a, locked, c], { encoding: 'utf8', cwd: dir })
  if (asNobody.error || /Cannot find module|EACCES.*dist/.test(asNobody.stderr)) {
    t.log(`SKIPPED (permission part): this checkout is not readable by another user: ${asNobody.stderr.slice(0, 200)}`)
    return
  }
  t.is(asNobody.status, 1, asNobody.stderr)
  t.regex(asNobody.stderr, /locked\.warc\.gz.*(Permission denied|os error 13)/)
  t.is(asNobody.stdout, await rowsOf([a, c]))
})
