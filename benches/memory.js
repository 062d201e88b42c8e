#!/usr/bin/env node
// Peak RSS of `warcdex index` (CLI, one core) on the two large
// inputs: a 5 GiB .warc.gz and a .warc.gz holding one 2 GiB record. Both are
// made here under .bench-data/memory/: the first by concatenating the
// benchmark's 1 GiB-set file (gzip members may follow each other) until it
// passes 5 GiB, the second from a WARC header and 2 GiB of zeros (gzip -1).
//
//   npm run bench -- --sets gz --runs 1   # once, so that set (1) exists
//   node benches/memory.js
import { spawnSync } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { timedRun } from './lib/measure.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const DIR = join(ROOT, '.bench-data', 'memory')
const GIB = 1024 ** 3
mkdirSync(DIR, { recursive: true })

function setFile() {
  const sets = join(ROOT, '.bench-data', 'sets')
  const scale1 = existsSync(sets) ? readdirSync(sets).find((d) => d.endsWith('-scale1')) : undefined
  const gz = scale1 && join(sets, scale1, 'gz')
  const file = gz && existsSync(gz) ? readdirSync(gz).find((f) => f.endsWith('.warc.gz')) : undefined
  if (!file) throw new Error('set (1) is missing: run `npm run bench -- --sets gz --runs 1` first')
  return join(gz, file)
}

function fiveGiB() {
  const out = join(DIR, 'five-gib.warc.gz')
  if (existsSync(out) && statSync(out).size >= 5 * GIB) return out
  const src = setFile()
  const fd = openSync(out, 'w')
  let size = 0
  while (size < 5 * GIB) {
    const data = readFileSync(src)
    writeSync(fd, data)
    size += data.length
  }
  closeSync(fd)
  return out
}

function oneBigRecord() {
  const out = join(DIR, 'one-2gib-record.warc.gz')
  if (existsSync(out)) return out
  const length = 2 * GIB
  const head =
    'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000002>\r\n' +
    'WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: http://big.example/zeros.bin\r\n' +
    `Content-Type: application/octet-stream\r\nContent-Length: ${length}\r\n\r\n`
  const sh = `{ printf '%s' "$HEAD"; head -c ${length} /dev/zero; printf '\\r\\n\\r\\n'; } | gzip -1 > "$OUT"`
  const r = spawnSync('bash', ['-c', sh], { env: { ...process.env, HEAD: head, OUT: out }, stdio: 'inherit' })
  if (r.status !== 0) throw new Error('could not write the 2 GiB record')
  return out
}

const inputs = [
  ['a 5 GiB .warc.gz (set (1) concatenated)', fiveGiB()],
  ['one 2 GiB record (.warc.gz, digest computed)', oneBigRecord()],
]
console.log('| input | compressed | wall s | peak RSS (MB) | rows |\n|---|---:|---:|---:|---:|')
for (const [what, file] of inputs) {
  const rowsFile = join(DIR, 'rows.cdxj')
  const m = await timedRun({ argv: [process.execPath, join(ROOT, 'bin', 'warcdex.js'), 'index', '-q', file], cpus: '0', stdoutFile: rowsFile, timeoutSec: 3600 })
  if (m.exitCode !== 0) throw new Error(`warcdex index failed on ${file}`)
  const rows = readFileSync(rowsFile, 'utf8').split('\n').filter(Boolean).length
  console.log(`| ${what} | ${(statSync(file).size / 1e9).toFixed(2)} GB | ${m.wall.toFixed(1)} | ${(m.rssKiB / 1024).toFixed(0)} | ${rows.toLocaleString('en-US')} |`)
}
