// The benchmark sets: what they are, and their reproducible generation with
// warcdex-synth into .bench-data/sets/<id>/, described by a manifest.json.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync, openSync, readSync, closeSync } from 'node:fs'
import path from 'node:path'
import { ROOT, rel, run, runLoud, log } from './proc.js'

const MiB = 1 << 20
const GiB = 1 << 30

/**
 * The six sets of issue 3. `size` is warcdex-synth's --size: the approximate
 * uncompressed size of each file. --scale multiplies the size of each file,
 * except for set (3), where it multiplies the number of 2 MiB files.
 */
export const SET_DEFS = [
  { id: 'gz', n: 1, what: 'one .warc.gz (gzip per record)', format: 'warc.gz', size: GiB, files: 1 },
  { id: 'warc', n: 2, what: 'the same data uncompressed (.warc)', format: 'warc', size: GiB, files: 1 },
  { id: 'many', n: 3, what: 'many small .warc.gz files', format: 'warc.gz', size: 2 * MiB, files: 500, scaleFiles: true },
  { id: 'arc', n: 4, what: 'one .arc.gz', format: 'arc.gz', size: 256 * MiB, files: 1 },
  { id: 'zst', n: 5, what: 'one .warc.zst (zstd per record, dictionary in a skippable frame)', format: 'warc.zst-dict', size: 256 * MiB, files: 1 },
  { id: 'nodigest', n: 6, what: 'one .warc.gz without WARC-Payload-Digest (digests must be computed)', format: 'warc.gz', size: 256 * MiB, files: 1, omitPayloadDigest: true }
]

export const DATA_DIR = path.join(ROOT, '.bench-data')

/** Human-readable binary size, e.g. 1 GiB, 51.2 MiB. */
export function binSize (bytes) {
  if (bytes >= GiB) return `${+(bytes / GiB).toFixed(2)} GiB`
  if (bytes >= MiB) return `${+(bytes / MiB).toFixed(1)} MiB`
  return `${+(bytes / 1024).toFixed(0)} KiB`
}

/** The sets to run, with --scale applied. */
export function planSets (opts) {
  const wanted = opts.sets
  if (wanted) {
    for (const id of wanted) if (!SET_DEFS.some((s) => s.id === id)) throw new Error(`--sets: no set '${id}' (sets: ${SET_DEFS.map((s) => s.id).join(', ')})`)
  }
  return SET_DEFS.filter((d) => !wanted || wanted.includes(d.id)).map((d) => {
    const files = d.scaleFiles ? Math.max(2, Math.round(d.files * opts.scale)) : d.files
    const size = d.scaleFiles ? d.size : Math.max(MiB, Math.round(d.size * opts.scale))
    const title = d.files > 1 || d.scaleFiles
      ? `(${d.n}) ${files} files of ${binSize(size)} .${d.format.replace('-dict', '')}`
      : `(${d.n}) ${d.what}, ${binSize(size)}`
    // One directory per seed and scale, so that quick and full runs do not regenerate each other's sets.
    return { ...d, files, size, seed: opts.seed, title, dir: path.join(DATA_DIR, 'sets', `seed${opts.seed}-scale${opts.scale}`, d.id) }
  })
}

/** The warcdex-synth arguments that make a set. */
export function synthArgs (set) {
  const args = ['--format', set.format, '--size', String(set.size), '--files', String(set.files), '--seed', String(set.seed), '--prefix', set.id]
  if (set.omitPayloadDigest) args.push('--omit-payload-digest')
  return args
}

/** Path of the generator, built (release) if it is not there. */
export function synthBinary () {
  const targetDir = process.env.CARGO_TARGET_DIR ? path.resolve(ROOT, process.env.CARGO_TARGET_DIR) : path.join(ROOT, 'target')
  const bin = path.join(targetDir, 'release', 'warcdex-synth')
  if (!existsSync(bin)) {
    log('warcdex-synth is not built; building it (cargo build --release -p warcdex-synth)')
    if (!runLoud('cargo', ['build', '--release', '-p', 'warcdex-synth'])) throw new Error('could not build warcdex-synth')
  }
  return bin
}

/**
 * Makes sure the set is on disk as planned; regenerates it when the manifest's
 * parameters differ, a file is missing or has another size, or `regen` is set.
 * Returns the set with `files` (paths), `bytes`, `uncompressed`, `records`.
 */
export function ensureSet (set, { regen = false } = {}) {
  const manifestPath = path.join(set.dir, 'manifest.json')
  const params = { format: set.format, size: set.size, files: set.files, seed: set.seed, omitPayloadDigest: Boolean(set.omitPayloadDigest) }
  let manifest = null
  if (!regen && existsSync(manifestPath)) {
    try {
      manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
      const same = JSON.stringify(manifest.params) === JSON.stringify(params) &&
        manifest.files.every((f) => existsSync(path.join(set.dir, f.name)) && statSync(path.join(set.dir, f.name)).size === f.bytes)
      if (!same) manifest = null
    } catch {
      manifest = null
    }
  }
  if (!manifest) {
    const bin = synthBinary()
    rmSync(set.dir, { recursive: true, force: true })
    mkdirSync(path.dirname(set.dir), { recursive: true })
    const args = [...synthArgs(set), set.dir]
    log(`generating set ${set.id}: warcdex-synth ${synthArgs(set).join(' ')} ${rel(set.dir)}`)
    const t0 = process.hrtime.bigint()
    const r = run(bin, args)
    if (!r.ok) throw new Error(`warcdex-synth failed for set ${set.id}: ${r.stderr || r.stdout}`)
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9
    const files = []
    for (const line of (r.stdout + r.stderr).split('\n')) {
      const m = /^(\S+)\s+(\d+) bytes \((\d+) uncompressed\).*\brecords (\d+)/.exec(line)
      if (m) files.push({ name: path.basename(m[1]), bytes: +m[2], uncompressed: +m[3], records: +m[4] })
    }
    if (files.length !== set.files) throw new Error(`warcdex-synth: expected ${set.files} files in its report for set ${set.id}, read ${files.length}`)
    files.sort((a, b) => a.name.localeCompare(b.name))
    manifest = { params, command: `warcdex-synth ${synthArgs(set).join(' ')} ${rel(set.dir)}`, generatedSeconds: +seconds.toFixed(1), files }
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n')
  }
  const sum = (k) => manifest.files.reduce((a, f) => a + f[k], 0)
  return {
    ...set,
    command: manifest.command,
    files: manifest.files.map((f) => path.join(set.dir, f.name)),
    bytes: sum('bytes'),
    uncompressed: sum('uncompressed'),
    records: sum('records'),
    gzip: isGzip(path.join(set.dir, manifest.files[0].name))
  }
}

/** Reads every file of the set once, so that every contender starts with it in the page cache. */
export function warmCache (set) {
  const buf = Buffer.allocUnsafe(4 << 20)
  for (const f of set.files) {
    const fd = openSync(f, 'r')
    try {
      while (readSync(fd, buf, 0, buf.length, null) > 0);
    } finally {
      closeSync(fd)
    }
  }
}

function isGzip (file) {
  const fd = openSync(file, 'r')
  try {
    const b = Buffer.alloc(2)
    readSync(fd, b, 0, 2, 0)
    return b[0] === 0x1f && b[1] === 0x8b
  } finally {
    closeSync(fd)
  }
}
