#!/usr/bin/env node
// `npm run fuzz -- --minutes N [--targets a,b] [--jobs J] [--sanitizer address|none] [--corpus DIR] [--no-tmin]`
// runs a fuzzing campaign over the targets of crates/warcdex-fuzz (fuzz/README.md):
// cargo-fuzz is installed when missing; seed corpora are written into
// fuzz/corpus/<target>/ (git-ignored) from the hand-made seeds, generated page
// dumps and, when it is there, the conformance corpus (../shared/corpus);
// each target then runs for its share of the minutes with its dictionary.
// libFuzzer's final numbers go to fuzz/campaign.ndjson (one line per target
// run) and the Campaign table of fuzz/README.md; crash, timeout and
// out-of-memory inputs are minimised (crashes), copied into
// fuzz/regressions/<target>/ and printed.
//
// With `--sanitizer address` (the default, as in cargo-fuzz) the C code
// compiled by the cc crate (libdeflate, zstd, liblzma) is built with
// -fsanitize=address too, through CFLAGS/CXXFLAGS, and the build is checked
// for it.
//
// `npm run fuzz -- --report` only rewrites the Campaign table from fuzz/campaign.ndjson.
import { spawn, spawnSync } from 'node:child_process'
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const fuzzDir = join(root, 'fuzz')
const campaignFile = join(fuzzDir, 'campaign.ndjson')
const readme = join(fuzzDir, 'README.md')
const TABLE_START = '<!-- campaign-table:start -->'
const TABLE_END = '<!-- campaign-table:end -->'
const ASAN_CFLAGS = '-fsanitize=address -fno-omit-frame-pointer'

function fail (msg) {
  process.stderr.write(`fuzz: ${msg}\n`)
  process.exit(2)
}

function parseArgs (argv) {
  const o = { minutes: 10, targets: null, jobs: 1, sanitizer: 'address', corpus: resolve(root, '..', 'shared', 'corpus'), tmin: true, report: false }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`)
      return argv[++i]
    }
    if (a === '--minutes') o.minutes = Number(value())
    else if (a === '--targets') o.targets = value().split(',').map(s => s.trim()).filter(Boolean)
    else if (a === '--jobs') o.jobs = Number.parseInt(value(), 10)
    else if (a === '--sanitizer') o.sanitizer = value()
    else if (a === '--corpus') o.corpus = resolve(value())
    else if (a === '--no-tmin') o.tmin = false
    else if (a === '--report') o.report = true
    else if (a === '-h' || a === '--help') {
      process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').filter(l => l.startsWith('//')).map(l => l.slice(3)).join('\n') + '\n')
      process.exit(0)
    } else fail(`unknown option ${a}`)
  }
  if (!(o.minutes > 0)) fail('--minutes must be a positive number')
  if (!(o.jobs >= 1)) fail('--jobs must be at least 1')
  if (!['address', 'none'].includes(o.sanitizer)) fail('--sanitizer is address or none')
  return o
}

function output (cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts })
  return r.status === 0 ? r.stdout.trim() : null
}

function runOrDie (cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts })
  if (r.status !== 0) fail(`${cmd} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`})`)
}

/** CPU seconds used by this process's finished children (Linux), or null. */
function childCpuSeconds () {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // Fields 16 and 17 of proc(5) (cutime, cstime), counted from `state` (field 3).
    return (Number(fields[13]) + Number(fields[14])) / clockTicks
  } catch {
    return null
  }
}
const clockTicks = Number(output('getconf', ['CLK_TCK'])) || 100

/** name -> dictionary, from the crate's own list (the one source of targets). */
function targetList () {
  const text = output('cargo', ['run', '--release', '-q', '-p', 'warcdex-fuzz', '--bin', 'warcdex-fuzz-seeds', '--', '--list'], { stdio: ['ignore', 'pipe', 'inherit'] })
  if (text === null) fail('cannot list the targets (cargo run -p warcdex-fuzz --bin warcdex-fuzz-seeds -- --list)')
  return new Map(text.split('\n').filter(Boolean).map(l => l.split('\t')))
}

function ensureCargoFuzz () {
  if (output('cargo', ['fuzz', '--version']) !== null) return
  process.stderr.write('fuzz: cargo-fuzz is missing: cargo install cargo-fuzz --locked\n')
  runOrDie('cargo', ['install', 'cargo-fuzz', '--locked'])
}

function ensureNightly () {
  const list = output('rustup', ['toolchain', 'list']) ?? ''
  if (!/^nightly/m.test(list)) fail('cargo-fuzz needs a nightly toolchain: rustup toolchain install nightly')
}

function fuzzEnv (sanitizer) {
  const env = { ...process.env }
  if (sanitizer === 'address') {
    env.CFLAGS = `${env.CFLAGS ?? ''} ${ASAN_CFLAGS}`.trim()
    env.CXXFLAGS = `${env.CXXFLAGS ?? ''} ${ASAN_CFLAGS}`.trim()
  }
  return env
}

function listFiles (dir) {
  const out = []
  if (!existsSync(dir)) return out
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(...listFiles(p))
    else out.push(p)
  }
  return out
}

/**
 * Whether the cc-built C libraries of the fuzz build carry AddressSanitizer
 * instrumentation: their objects call `__asan_` functions.
 */
function checkCInstrumented () {
  const buildDir = join(fuzzDir, 'target')
  const libs = ['libdeflate-sys', 'zstd-sys', 'liblzma-sys']
  const found = {}
  for (const f of listFiles(buildDir)) {
    if (!/\/build\/[^/]+\/out\//.test(f) || !/\.(o|a)$/.test(f)) continue
    const lib = libs.find(l => f.includes(`/${l}-`))
    if (!lib) continue
    const instrumented = readFileSync(f).includes('__asan_')
    found[lib] = (found[lib] ?? false) || instrumented
  }
  for (const lib of libs) {
    const state = lib in found ? (found[lib] ? 'instrumented with AddressSanitizer' : 'NOT instrumented') : 'objects not found'
    process.stdout.write(`fuzz: C code of ${lib}: ${state}\n`)
  }
  return found
}

/** Runs a command, echoing its standard error, and keeps the text. */
function runCapture (cmd, args, env) {
  return new Promise(resolvePromise => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let text = ''
    const keep = chunk => {
      text += chunk
      // Only the end matters (final stats, the crash report); the start is the
      // build and the seed loading.
      if (text.length > 4 << 20) text = text.slice(-(2 << 20))
    }
    child.stdout.on('data', d => { process.stdout.write(d); keep(d.toString()) })
    child.stderr.on('data', d => { process.stderr.write(d); keep(d.toString()) })
    child.on('close', code => resolvePromise({ code, text }))
  })
}

/** libFuzzer's last status line and final stats. */
function parseStats (text) {
  const stats = { execs: null, cov: null, ft: null, corpus: null, execsPerSec: null, newUnits: null, peakRssMb: null }
  for (const line of text.split('\n')) {
    const m = /^#(\d+):?\s+(?:[A-Z]+\s+)?cov: (\d+) ft: (\d+) corp: (\d+)/.exec(line)
    if (m) Object.assign(stats, { execs: +m[1], cov: +m[2], ft: +m[3], corpus: +m[4] })
    const s = /^stat::(\w+):\s+(\d+)/.exec(line)
    if (s) {
      const v = +s[2]
      if (s[1] === 'number_of_executed_units') stats.execs = v
      else if (s[1] === 'average_exec_per_sec') stats.execsPerSec = v
      else if (s[1] === 'new_units_added') stats.newUnits = v
      else if (s[1] === 'peak_rss_mb') stats.peakRssMb = v
    }
  }
  return stats
}

/** The lines of a crash report worth printing. */
function crashLines (text) {
  const lines = text.split('\n')
  const out = []
  lines.forEach((l, i) => {
    if (/panicked at/.test(l)) out.push(l, ...lines.slice(i + 1, i + 4).filter(m => !/^(stack backtrace|==\d+==|\s+\d+: )/.test(m)))
    else if (/ERROR: (AddressSanitizer|libFuzzer)|SUMMARY: |out-of-memory|timeout after|Test unit written/.test(l)) out.push(l)
  })
  return out.map(l => l.length > 400 ? l.slice(0, 400) + '...' : l).slice(0, 30)
}

/**
 * What tells one failure from another: the panic's place and the first
 * line of its message without numbers (offsets, lengths), or the kind of
 * failure libFuzzer reports (out of memory, timeout, sanitizer error).
 */
function signature (text) {
  const lines = text.split('\n')
  const i = lines.findIndex(l => /panicked at/.test(l))
  // The file, not the line: one bug often panics on neighbouring lines.
  if (i >= 0) return `${lines[i].replace(/^.*panicked at /, '').replace(/:\d+:\d+:?$/, '')} ${(lines[i + 1] ?? '').replace(/\d+/g, 'N').slice(0, 160)}`
  const m = /ERROR: (?:libFuzzer|AddressSanitizer): ([\w-]+)/.exec(text)
  return m ? m[1] : 'unknown'
}

/**
 * The failures the kept inputs of a target cause now (signature -> file),
 * so that a campaign does not keep new copies of known bugs.
 */
function knownFailures (t, env) {
  const known = new Map()
  const dir = join(fuzzDir, 'regressions', t)
  const binary = join(fuzzDir, 'target', 'x86_64-unknown-linux-gnu', 'release', t)
  if (!existsSync(dir) || !existsSync(binary)) return known
  for (const f of readdirSync(dir)) {
    const r = spawnSync(binary, ['-rss_limit_mb=2048', '-timeout=10', join(dir, f)], { cwd: root, env, encoding: 'latin1', maxBuffer: 64 << 20 })
    if (r.status !== 0) known.set(signature(`${r.stdout}\n${r.stderr}`), f)
  }
  return known
}

async function fuzzTarget (t, dict, o, env) {
  const corpusDir = join(fuzzDir, 'corpus', t)
  const artifactDir = join(fuzzDir, 'artifacts', t)
  mkdirSync(corpusDir, { recursive: true })
  const seconds = Math.max(1, Math.floor(o.minutes * 60 / o.targets.length))
  const totals = { wall: 0, cpu: 0, execs: 0, newUnits: 0, runs: 0 }
  let stats = {}
  const found = []
  const kept = []
  const known = knownFailures(t, env)
  const seen = new Set(known.keys())
  let repeats = 0
  // libFuzzer stops at the first failure: the target is started again for
  // the rest of its time, so that one bug does not take all of it (at most
  // one input is kept per kind of failure), until it keeps failing the same
  // ways only.
  while (seconds - totals.wall >= (totals.runs ? 10 : 1) && totals.runs < 20 && repeats < 3) {
    const before = new Set(existsSync(artifactDir) ? readdirSync(artifactDir) : [])
    const left = Math.round(seconds - totals.wall)
    const libfuzzer = [
      `-max_total_time=${left}`,
      `-dict=${relative(root, join(fuzzDir, 'dict', `${dict}.dict`))}`,
      '-rss_limit_mb=2048',
      '-timeout=10',
      '-print_final_stats=1',
      ...(o.jobs > 1 ? [`-fork=${o.jobs}`] : [])
    ]
    const args = ['+nightly', 'fuzz', 'run', '--fuzz-dir', 'fuzz', '-s', o.sanitizer, t, relative(root, corpusDir), '--', ...libfuzzer]
    process.stdout.write(`\nfuzz: ${t} for ${left} s: cargo ${args.join(' ')}\n`)
    const started = Date.now()
    const c0 = childCpuSeconds()
    const { code, text } = await runCapture('cargo', args, env)
    const c1 = childCpuSeconds()
    totals.wall += (Date.now() - started) / 1000
    // Minimising (below) is not counted: only the fuzzing itself.
    totals.cpu = c0 !== null && c1 !== null && totals.cpu !== null ? totals.cpu + c1 - c0 : null
    totals.runs++
    stats = parseStats(text)
    totals.execs += stats.execs ?? 0
    totals.newUnits += stats.newUnits ?? 0
    const fresh = (existsSync(artifactDir) ? readdirSync(artifactDir) : [])
      .filter(f => !before.has(f) && /^(crash|timeout|oom|leak)-/.test(f))
    found.push(...fresh)
    if (code !== 0 && fresh.length === 0) {
      process.stderr.write(`fuzz: ${t}: libFuzzer exited with ${code} and left no artifact\n`)
      break
    }
    if (fresh.length === 0) break
    const sig = signature(text)
    if (seen.has(sig)) {
      if (known.has(sig)) process.stdout.write(`fuzz: ${t}: a known failure (as regressions/${t}/${known.get(sig)}), not kept again\n`)
      repeats++
      continue
    }
    repeats = 0
    seen.add(sig)
    for (const f of fresh) {
      const src = join(artifactDir, f)
      let best = src
      if (o.tmin && f.startsWith('crash-')) {
        // tmin writes `minimized-from-<hash>` next to the input.
        const r = spawnSync('cargo', ['+nightly', 'fuzz', 'tmin', '--fuzz-dir', 'fuzz', '-s', o.sanitizer, '-r', '3000', t, relative(root, src)], { cwd: root, env, stdio: ['ignore', 'ignore', 'ignore'] })
        const min = join(artifactDir, `minimized-from-${f.slice('crash-'.length)}`)
        if (r.status === 0 && existsSync(min) && statSync(min).size <= statSync(src).size) best = min
      }
      const dest = join(fuzzDir, 'regressions', t, f)
      mkdirSync(dirname(dest), { recursive: true })
      copyFileSync(best, dest)
      kept.push({ file: relative(root, dest), bytes: statSync(dest).size, minimized: best !== src, lines: crashLines(text) })
    }
  }
  const entry = {
    target: t,
    date: new Date().toISOString(),
    commit: output('git', ['rev-parse', '--short', 'HEAD']),
    sanitizer: o.sanitizer,
    jobs: o.jobs,
    seconds: Math.round(totals.wall),
    cpuSeconds: totals.cpu === null ? null : Math.round(totals.cpu),
    ...stats,
    execs: totals.execs,
    newUnits: totals.newUnits,
    starts: totals.runs,
    crashes: found.length,
    artifacts: kept.map(k => k.file)
  }
  appendFileSync(campaignFile, JSON.stringify(entry) + '\n')
  if (kept.length) {
    process.stdout.write(`\nfuzz: ${t} FAILED (${found.length} failing inputs, ${kept.length} kinds), kept for \`cargo test -p warcdex-fuzz\`:\n`)
    for (const k of kept) {
      const bytes = readFileSync(join(root, k.file))
      const shown = JSON.stringify(bytes.subarray(0, 200).toString('latin1'))
      process.stdout.write(`  ${k.file} (${k.bytes} bytes${k.minimized ? ', minimised' : ''}): ${shown}${bytes.length > 200 ? '...' : ''}\n`)
      for (const l of k.lines) process.stdout.write(`  | ${l}\n`)
    }
    process.stdout.write('  Once the bug is understood, name each input in fuzz/regressions/OPEN until it is fixed (see fuzz/README.md).\n')
  }
  return entry
}

function fmt (n) {
  return n === null || n === undefined ? '-' : Number(n).toLocaleString('en-US')
}

/** The Campaign table of fuzz/README.md, from fuzz/campaign.ndjson. */
function writeReport () {
  const runs = existsSync(campaignFile)
    ? readFileSync(campaignFile, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l))
    : []
  const byTarget = new Map()
  for (const r of runs) {
    if (!byTarget.has(r.target)) byTarget.set(r.target, [])
    byTarget.get(r.target).push(r)
  }
  const rows = ['| target | runs | CPU s | execs | exec/s (last) | cov | ft | corpus | crashes | last run |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|']
  let cpu = 0
  let execs = 0
  let crashes = 0
  for (const [t, list] of [...byTarget].sort((a, b) => a[0].localeCompare(b[0]))) {
    const last = list[list.length - 1]
    const sum = k => list.reduce((s, r) => s + (r[k] ?? 0), 0)
    cpu += sum('cpuSeconds')
    execs += sum('execs')
    crashes += sum('crashes')
    rows.push(`| ${t} | ${list.length} | ${fmt(sum('cpuSeconds'))} | ${fmt(sum('execs'))} | ${fmt(last.execsPerSec)} | ${fmt(last.cov)} | ${fmt(last.ft)} | ${fmt(last.corpus)} | ${sum('crashes')} | ${last.date.slice(0, 10)} ${last.commit ?? ''} ${last.sanitizer}, ${last.seconds} s |`)
  }
  rows.push(`| **all** | ${runs.length} | ${fmt(cpu)} | ${fmt(execs)} | | | | | ${crashes} | |`)
  const table = runs.length ? rows.join('\n') : '_No campaign has been run yet._'
  const text = readFileSync(readme, 'utf8')
  const a = text.indexOf(TABLE_START)
  const b = text.indexOf(TABLE_END)
  if (a < 0 || b < a) fail(`fuzz/README.md has no ${TABLE_START} ... ${TABLE_END} markers`)
  writeFileSync(readme, `${text.slice(0, a + TABLE_START.length)}\n${table}\n${text.slice(b)}`)
  process.stdout.write(`fuzz: Campaign table of fuzz/README.md rewritten (${runs.length} runs)\n`)
}

async function main () {
  const o = parseArgs(process.argv.slice(2))
  if (o.report) {
    writeReport()
    return
  }
  ensureNightly()
  ensureCargoFuzz()
  const targets = targetList()
  o.targets ??= [...targets.keys()]
  for (const t of o.targets) if (!targets.has(t)) fail(`no target ${t} (targets: ${[...targets.keys()].join(', ')})`)

  // Seed corpora: hand-made and generated always, the conformance corpus when present.
  runOrDie('cargo', ['run', '--release', '-q', '-p', 'warcdex-fuzz', '--bin', 'warcdex-fuzz-seeds', '--', o.corpus, join(fuzzDir, 'corpus')])

  const env = fuzzEnv(o.sanitizer)
  process.stdout.write(`fuzz: building ${o.targets.length} targets (nightly, sanitizer ${o.sanitizer}${o.sanitizer === 'address' ? `, CFLAGS=${env.CFLAGS}` : ''})\n`)
  runOrDie('cargo', ['+nightly', 'fuzz', 'build', '--fuzz-dir', 'fuzz', '-s', o.sanitizer], { env })
  if (o.sanitizer === 'address') {
    const found = checkCInstrumented()
    if (Object.values(found).some(v => !v)) process.stderr.write('fuzz: some C code is not instrumented: see "Sanitizers" in fuzz/README.md\n')
  }

  const results = []
  for (const t of o.targets) results.push(await fuzzTarget(t, targets.get(t), o, env))
  writeReport()
  process.stdout.write('\nfuzz: target            CPU s      execs   cov    ft  corpus  crashes\n')
  for (const r of results) {
    process.stdout.write(`fuzz: ${r.target.padEnd(16)} ${String(r.cpuSeconds ?? '-').padStart(7)} ${String(r.execs ?? '-').padStart(10)} ${String(r.cov ?? '-').padStart(5)} ${String(r.ft ?? '-').padStart(5)} ${String(r.corpus ?? '-').padStart(7)} ${String(r.crashes).padStart(8)}\n`)
  }
  const failed = results.filter(r => r.crashes > 0)
  if (failed.length) {
    process.stdout.write(`fuzz: ${failed.length} target(s) found failing inputs: ${failed.map(r => r.target).join(', ')}\n`)
    process.exitCode = 1
  }
}

main()
