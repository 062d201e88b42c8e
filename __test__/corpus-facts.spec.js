// Every file of ../shared/corpus is read to its end without a crash, and
// record counts, types and offsets match what other tools' tests assert
// (JWAT, FastWARC, warcio's ArchiveIterator).
import test from 'ava'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

import { readRecords } from '../dist/index.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const CORPUS = join(ROOT, '..', 'shared', 'corpus')
const present = existsSync(join(CORPUS, 'MANIFEST.md'))

function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, out)
    else out.push(p)
  }
  return out
}

async function read(rel) {
  const problems = []
  const records = []
  for await (const r of readRecords(join(CORPUS, rel), { onProblem: (p) => problems.push(p) })) records.push(r)
  return { records, problems, skipped: problems.filter((p) => p.event === 'skipped') }
}

// warcio calls the ARC file header 'arc_header'; warcdex calls it warcinfo.
const warcioType = (r) => (r.format === 'arc' && r.type === 'warcinfo' ? 'arc_header' : r.type)

/** Inputs warcdex refuses on purpose, with the reason. */
const REFUSED = {
  '.lz4': 'LZ4 framing is a FastWARC extension, not a WARC compression; warcdex says so and reads nothing',
}

if (!present) {
  test('corpus facts', (t) => {
    console.log('SKIPPED: ../shared/corpus is not present; corpus facts were not checked')
    t.pass()
  })
} else {
  test('every corpus file is read to its end, problems reported with file and offset', async (t) => {
    const files = walk(CORPUS)
    let archives = 0
    for (const file of files) {
      const rel = relative(CORPUS, file)
      const problems = []
      let count = 0
      // Must not throw: bad input is reported through onProblem.
      for await (const _ of readRecords(file, { onProblem: (p) => problems.push(p) })) count++
      for (const p of problems) {
        t.true(p.message.includes(file) || p.source === file, `${rel}: problem names the file: ${p.message}`)
      }
      if (count > 0) archives++
      const ext = Object.keys(REFUSED).find((e) => rel.endsWith(e))
      if (ext) t.is(count, 0, `${rel}: ${REFUSED[ext]}`)
      if (count === 0) t.true(problems.length > 0 || statSync(file).size === 0, `${rel}: nothing read, and nothing said`)
    }
    t.log(`${files.length} files read to the end, ${archives} with records`)
    // 196 of the 375 files hold records today; fewer would mean a reader regression.
    t.true(archives >= 196, `${archives} files with records`)
  })

  test('record counts match JWAT', async (t) => {
    const facts = JSON.parse(readFileSync(join(CORPUS, 'netarchivesuite+jwat/_expected/jwat-facts.json'), 'utf8')).facts
    for (const f of facts) {
      const { records, skipped } = await read(f.input)
      // JWAT counts every record, even those missing required fields.
      t.is(records.length + skipped.length, f.records, `${f.input}: ${records.length} read, ${skipped.length} skipped`)
      if (f.concurrent_tos !== undefined && records[0]) {
        t.is(records[0].headers.getAll('WARC-Concurrent-To').length, f.concurrent_tos, f.input)
      }
    }
  })

  test('record counts and offsets match FastWARC', async (t) => {
    const facts = JSON.parse(readFileSync(join(CORPUS, 'chatnoir-eu+chatnoir-resiliparse/_expected/fastwarc-facts.json'), 'utf8')).facts
    for (const f of facts) {
      for (const input of f.inputs ?? [f.input]) {
        const { records, problems } = await read(input)
        if (input.endsWith('.lz4')) {
          t.is(records.length, 0)
          t.regex(problems[0].message, /LZ4/)
          continue
        }
        if (f.record_count !== undefined) t.is(records.length, f.record_count, input)
        if (f.record_pattern) {
          t.is(records[0].type, 'warcinfo')
          t.deepEqual(records.slice(1, 4).map((r) => r.type), ['request', 'response', 'metadata'])
        }
        if (f.record_offsets_first3) t.deepEqual(records.slice(0, 3).map((r) => r.offset), f.record_offsets_first3, input)
        if (/clipped/.test(input)) {
          t.true(records.length > 0 && records.every((r) => r.type === 'response' && r.truncated), 'clipped records are kept and flagged')
          t.true(problems.some((p) => p.code === 'ETRUNCATED'))
        }
        if (/clueweb/.test(input)) {
          const offsets = records.map((r) => r.offset)
          t.true(offsets.every((o, i) => i === 0 || o > offsets[i - 1]), 'offsets strictly increase')
        }
      }
    }
  })

  test('record types and offsets match warcio ArchiveIterator', async (t) => {
    const facts = JSON.parse(readFileSync(join(CORPUS, 'webrecorder+warcio/_expected/archiveiterator-facts.json'), 'utf8'))
    for (const f of facts.record_type_sequences) {
      const { records, skipped } = await read(f.input)
      const types = records.map((r) => (f.options?.arc2warc ? r.type : warcioType(r)))
      t.deepEqual(types, f.record_types, f.input)
      t.is(skipped.length, f.options?.errs_expected ?? 0, `${f.input}: skipped records`)
    }
    for (const f of facts.other) {
      if (!f.record_offsets) continue
      const { records } = await read(f.input)
      t.deepEqual(records.map((r) => r.offset), f.record_offsets, f.input)
    }
  })
}
