#!/usr/bin/env node
// `npm run bench`: the benchmark of issue 3.
//
//   1. generate the sets into .bench-data/sets/ (warcdex-synth, from a seed);
//   2. run every contender on every set it is meant for, --runs times each,
//      round-robin (run 1 of every contender, then run 2, ...), pinned to one
//      core (two for the --jobs 2 row), under GNU time;
//   3. check each contender's output (index rows) after its first run: one
//      that fails, hangs or writes no usable index is shown as unable to read
//      the set and not run again;
//   4. time warcdex's first output line and the addon's release build;
//   5. write .bench-data/results/*.json, .bench-data/report.md and, for a
//      full run, the generated part of benches/README.md.
//
// See `npm run bench -- --help` and benches/README.md.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseOptions, USAGE } from './lib/args.js'
import { ROOT, rel, runLoud, log } from './lib/proc.js'
import { planSets, ensureSet, warmCache, DATA_DIR } from './lib/sets.js'
import { ensureTools, versions, machine, addonId, snapshotWarcdex } from './lib/tools.js'
import { contenders, warcdexHasJobs } from './lib/contenders.js'
import { timedRun, countRows, apiRows, timeToFirstLine, timeAddonBuild } from './lib/measure.js'
import { markdown, updateReadme, secs } from './lib/report.js'

/** A contender whose first run writes fewer rows than this share of warcdex's cannot read the set. */
const MIN_ROW_SHARE = 0.5

async function main () {
  let opts
  try {
    opts = parseOptions(process.argv.slice(2))
  } catch (e) {
    log(`${e.message}\n\n${USAGE}`)
    process.exit(2)
  }
  if (opts.help) {
    console.log(USAGE)
    return
  }
  if (opts.fromResults) {
    const results = JSON.parse(readFileSync(path.resolve(opts.fromResults), 'utf8'))
    writeReport(results, { readme: opts.readme && opts.argv.includes('--readme') })
    return
  }
  const started = Date.now()
  const loadStart = os.loadavg()

  ensureWarcdexBuilt()
  const { available } = ensureTools({ install: opts.install })
  const warcdexDir = snapshotWarcdex(DATA_DIR)
  const hasJobs = warcdexHasJobs(warcdexDir)
  let list = contenders({ hasJobs, warcdexDir })
  if (opts.contenders) {
    for (const id of opts.contenders) if (!list.some((c) => c.id === id)) throw new Error(`--contenders: no contender '${id}' (contenders: ${list.map((c) => c.id).join(', ')})`)
    list = list.filter((c) => c.id === 'warcdex-cli' || opts.contenders.includes(c.id))
  }

  // Every set first, so that generating one does not load the machine while another is timed.
  const sets = planSets(opts).map((s) => ensureSet(s, { regen: opts.regen }))

  const addonStart = addonId()  // the checkout's, to tell whether it was rebuilt meanwhile
  const results = { meta: {}, sets: [] }
  for (const set of sets) results.sets.push(await benchSet(set, list, available, opts))

  const firstSet = sets.find((s) => s.id === 'gz') ?? sets[0]
  if (firstSet) {
    log(`time to first output line, set ${firstSet.id}`)
    const cli = list.find((c) => c.id === 'warcdex-cli')
    const runs = []
    for (let i = 0; i < opts.runs; i++) runs.push(await timeToFirstLine({ argv: cli.argv(firstSet), cpus: cli.cpus }))
    results.firstLine = { set: firstSet.id, n: firstSet.n, runs }
  }
  if (opts.buildTime) {
    log('timing the addon release build (clean, in a temporary target directory; several minutes)')
    results.build = await timeAddonBuild()
    log(results.build.error ? `  ${results.build.error}` : `  clean ${secs(results.build.clean)} s, crate only ${secs(results.build.crate)} s`)
  }

  const argv = opts.argv.length ? ` -- ${opts.argv.join(' ')}` : ''
  results.meta = {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    command: `npm run bench${argv}`,
    scale: opts.scale,
    runs: opts.runs,
    seed: opts.seed,
    totalMinutes: ((Date.now() - started) / 60000).toFixed(0),
    machine: machine(),
    versions: versions(available, warcdexDir),
    loadStart,
    loadEnd: os.loadavg(),
    addonStart,
    addonEnd: addonId(),
    hasJobs
  }

  mkdirSync(path.join(DATA_DIR, 'results'), { recursive: true })
  const json = path.join(DATA_DIR, 'results', `${results.meta.date.replace(/:/g, '')}.json`)
  writeFileSync(json, JSON.stringify(results, null, 2) + '\n')
  log(`wrote ${rel(json)}`)
  writeReport(results, { readme: opts.readme })
}

/** Writes the Markdown report to .bench-data/report.md, standard output and (if asked) benches/README.md. */
function writeReport (results, { readme }) {
  const md = markdown(results)
  mkdirSync(DATA_DIR, { recursive: true })
  writeFileSync(path.join(DATA_DIR, 'report.md'), md)
  if (readme) updateReadme(path.join(ROOT, 'benches', 'README.md'), md)
  process.stdout.write(md)
  log(`\nwrote ${rel(path.join(DATA_DIR, 'report.md'))}${readme ? ' and the tables in benches/README.md' : ' (benches/README.md is only updated by a full run, or with --readme)'}`)
}

/** Builds warcdex (npm run build) if its addon or compiled TypeScript is missing. */
function ensureWarcdexBuilt () {
  const nativeDir = path.join(ROOT, 'native')
  const built = existsSync(path.join(ROOT, 'dist', 'index.js')) && existsSync(nativeDir) && readdirSync(nativeDir).some((f) => f.endsWith('.node'))
  if (built) return
  log('warcdex is not built; running npm run build')
  if (!runLoud('npm', ['run', 'build'])) throw new Error('npm run build failed')
}

async function benchSet (set, list, available, opts) {
  const outDir = path.join(DATA_DIR, 'out', set.id)
  mkdirSync(outDir, { recursive: true })
  const timeoutSec = opts.timeout ?? Math.max(60, set.bytes / 2e6) // 2 MB/s: far slower than any contender
  const entries = list.filter((c) => !c.only || c.only.includes(set.id)).map((c) => {
    const supported = c.supports(set)
    const reason = c.need && available[c.need] !== true ? available[c.need] : supported === true ? null : supported
    return { id: c.id, label: c.label, cpus: c.cpus, output: c.output, argv: c.argv(set), status: reason ? 'skip' : 'ok', reason, runs: [], rows: null, note: null }
  })
  log(`\n== set ${set.title}: ${set.files.length} file(s), ${(set.bytes / 1e6).toFixed(1)} MB; ${opts.runs} runs; time-out ${Math.round(timeoutSec)} s`)
  warmCache(set)
  const load = os.loadavg()[0]
  let refRows = null

  for (let run = 1; run <= opts.runs; run++) {
    for (const e of entries) {
      if (e.status !== 'ok') continue
      const stdoutFile = e.output === 'none' ? null : path.join(outDir, `${e.id}.out`)
      const stderrFile = path.join(outDir, `${e.id}.err`)
      const r = await timedRun({ argv: e.argv, cpus: e.cpus, stdoutFile, stderrFile, timeoutSec })
      const tag = `[${set.id} ${run}/${opts.runs}] ${e.id.padEnd(14)}`
      if (run === 1 || r.timedOut || r.exitCode !== e.runs[0]?.exitCode) {
        const verdict = await judge(e, r, { stdoutFile, stderrFile, refRows, timeoutSec })
        if (e.id === 'warcdex-cli' && refRows == null) refRows = e.rows
        if (verdict) {
          e.status = 'fail'
          e.reason = verdict
          e.runs = []
          log(`${tag} ${verdict}`)
          continue
        }
      }
      e.runs.push({ wall: r.wall, rssKiB: r.rssKiB, user: r.user, sys: r.sys, exitCode: r.exitCode })
      log(`${tag} ${secs(r.wall)} s, ${r.rssKiB == null ? '?' : Math.round(r.rssKiB / 1024)} MiB peak RSS${e.rows != null && e.output !== 'none' ? `, ${e.rows} rows` : ''}`)
    }
  }
  if (refRows == null) refRows = Math.max(0, ...entries.map((e) => e.rows ?? 0))
  for (const e of entries) delete e.argv
  return {
    id: set.id, n: set.n, title: set.title, command: set.command, fileCount: set.files.length,
    bytes: set.bytes, uncompressed: set.uncompressed, records: set.records, gzip: set.gzip,
    refRows, load, timeoutSec, contenders: entries
  }
}

/** Checks a run's result and output; returns why the contender cannot read the set, or null. */
async function judge (e, r, { stdoutFile, stderrFile, refRows, timeoutSec }) {
  const lastErr = lastLine(stderrFile)
  if (e.output !== 'none') {
    const { rows, lines } = e.output === 'api' ? apiRows(stdoutFile) : await countRows(stdoutFile)
    e.rows = rows
    if (r.timedOut) return `cannot read: still running after ${Math.round(timeoutSec)} s (${rows} rows written), killed`
    const tooFew = refRows != null && rows < refRows * MIN_ROW_SHARE
    if (tooFew || rows === 0) {
      if (r.exitCode !== 0) return `cannot read: exit ${r.exitCode} after ${rows} rows${lastErr ? `: ${lastErr}` : ''}`
      return `cannot read: ${rows} index rows in ${lines} lines of output (warcdex: ${refRows ?? '?'})`
    }
    const notes = []
    if (refRows != null && rows !== refRows) notes.push(`warcdex: ${refRows}`)
    if (r.exitCode !== 0) notes.push(`exit ${r.exitCode}`)
    e.note = notes.join('; ') || null
    return null
  }
  if (r.timedOut) return `cannot read: still running after ${Math.round(timeoutSec)} s, killed`
  if (r.exitCode !== 0) return `cannot read: exit ${r.exitCode}${lastErr ? `: ${lastErr}` : ''}`
  return null
}

/** The last non-empty line of a log, shortened and made safe for a Markdown table. */
function lastLine (file) {
  if (!file || !existsSync(file)) return ''
  const text = readFileSync(file, 'utf8')
  const line = text.split('\n').map((s) => s.trim()).filter(Boolean).pop() ?? ''
  const clean = line.split(ROOT + path.sep).join('').replace(/[^\x20-\x7e]+/g, '?').replace(/\|/g, '\\|')
  return clean.length > 100 ? clean.slice(0, 100) + '…' : clean
}

main().catch((e) => {
  log(`bench: ${e.stack ?? e}`)
  process.exit(1)
})
