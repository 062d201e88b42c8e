// Measuring one process: wall time (monotonic clock around the spawn), peak
// RSS, user and system CPU time (GNU time), pinned to cores with taskset.
import { spawn, spawnSync } from 'node:child_process'
import { createReadStream, openSync, closeSync, readFileSync, rmSync, existsSync, mkdtempSync, mkdirSync, symlinkSync } from 'node:fs'
import { createInterface } from 'node:readline'
import os from 'node:os'
import path from 'node:path'
import { ROOT, which } from './proc.js'
import { ROW } from './contenders.js'

const TIME = '/usr/bin/time'

/** argv, prefixed with taskset when it is there. */
export function pinned (argv, cpus) {
  return which('taskset') ? ['taskset', '-c', cpus, ...argv] : argv
}

/**
 * Runs argv once under GNU time. Standard output goes to stdoutFile (or
 * /dev/null), standard error to stderrFile. Returns
 * { wall, rssKiB, user, sys, exitCode, timedOut }.
 */
export function timedRun ({ argv, cpus, stdoutFile, stderrFile, timeoutSec }) {
  const timeFile = path.join(os.tmpdir(), `warcdex-bench-time-${process.pid}.txt`)
  const out = openSync(stdoutFile ?? '/dev/null', 'w')
  const err = openSync(stderrFile ?? '/dev/null', 'w')
  const full = [TIME, '-f', '%e %M %U %S %x', '-o', timeFile, ...pinned(argv, cpus)]
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    // A process group of its own, so that a time-out ends the whole run.
    const child = spawn(full[0], full.slice(1), { cwd: ROOT, stdio: ['ignore', out, err], detached: true })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      try { process.kill(-child.pid, 'SIGKILL') } catch {}
    }, timeoutSec * 1000)
    child.on('error', (e) => { clearTimeout(timer); reject(e) })
    child.on('exit', (code, signal) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9
      clearTimeout(timer)
      closeSync(out)
      closeSync(err)
      let rssKiB = null; let user = null; let sys = null; let exitCode = code
      try {
        // The last line holds the numbers; above it GNU time may write "Command exited with non-zero status N".
        const lines = readFileSync(timeFile, 'utf8').trim().split('\n')
        const m = /^([\d.]+) (\d+) ([\d.]+) ([\d.]+) (-?\d+)$/.exec(lines[lines.length - 1])
        if (m) { rssKiB = +m[2]; user = +m[3]; sys = +m[4]; exitCode = +m[5] }
      } catch {}
      rmSync(timeFile, { force: true })
      resolve({ wall, rssKiB, user, sys, exitCode: timedOut ? null : exitCode, signal, timedOut })
    })
  })
}

/** Counts the index rows (and all lines) of an output file. */
export async function countRows (file) {
  let rows = 0; let lines = 0
  if (!existsSync(file)) return { rows, lines }
  const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity })
  for await (const line of rl) {
    lines++
    if (ROW.test(line)) rows++
  }
  return { rows, lines }
}

/** Reads `rows N` from the API contender's output. */
export function apiRows (file) {
  const m = existsSync(file) ? /^rows (\d+)$/m.exec(readFileSync(file, 'utf8')) : null
  return { rows: m ? +m[1] : 0, lines: m ? 1 : 0 }
}

/**
 * Time from spawn to the first complete line on standard output; the process
 * is then ended (it is ours: killed by its pid).
 */
export function timeToFirstLine ({ argv, cpus, timeoutSec = 60 }) {
  const full = pinned(argv, cpus)
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint()
    const child = spawn(full[0], full.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
    let done = false
    const finish = (value) => {
      if (done) return
      done = true
      clearTimeout(timer)
      try { child.kill('SIGKILL') } catch {}
      resolve(value)
    }
    const timer = setTimeout(() => finish(null), timeoutSec * 1000)
    child.stdout.on('data', (chunk) => {
      if (chunk.includes(10)) finish(Number(process.hrtime.bigint() - t0) / 1e9)
    })
    child.on('exit', () => finish(null))
  })
}

/**
 * Times the addon's release build of the committed tree (HEAD, exported with
 * `git archive` into a temporary directory, with its own target directory, so
 * that neither the checkout's target/ and native/ nor uncommitted work in
 * progress are involved), as `npm ci` runs it (`scripts/build.mjs`: an
 * instrumented build, its training run, the profile-guided build, then
 * tsc): first from clean (every dependency), then after `cargo clean -p
 * warcdex-node` in both builds' target directories (the addon crate only, as
 * after an edit to it). Returns { commit, clean, crate } in seconds, or
 * { commit, error }.
 */
export async function timeAddonBuild () {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'warcdex-bench-build-'))
  const src = path.join(tmp, 'src')
  const env = { ...process.env, CARGO_TARGET_DIR: path.join(tmp, 'target') }
  const napi = path.join(ROOT, 'node_modules', '@napi-rs', 'cli', 'dist', 'cli.js')
  const build = [process.execPath, path.join(src, 'scripts', 'build.mjs')]
  const once = (argv, cwd = src) => new Promise((resolve) => {
    const t0 = process.hrtime.bigint()
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-64000) })
    child.on('exit', (code) => resolve({ ok: code === 0, seconds: Number(process.hrtime.bigint() - t0) / 1e9, stderr }))
    child.on('error', (e) => resolve({ ok: false, seconds: 0, stderr: String(e) }))
  })
  const firstError = (text) => text.split('\n').find((l) => /^error/.test(l.trim()))?.trim() ?? text.trim().split('\n').pop()
  const commit = execText('git', ['rev-parse', '--short=10', 'HEAD']) || 'unknown'
  try {
    if (!existsSync(napi)) return { commit, error: 'node_modules/@napi-rs/cli is missing (npm ci)' }
    mkdirSync(src)
    const exported = await once(['sh', '-c', `git archive --format=tar HEAD | tar -x -C "${src}"`], ROOT)
    if (!exported.ok) return { commit, error: `git archive failed: ${firstError(exported.stderr)}` }
    // The build's tools (napi, tsc) from the checkout's node_modules.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(src, 'node_modules'), 'dir')
    const clean = await once(build)
    if (!clean.ok) return { commit, error: `build failed: ${firstError(clean.stderr)}` }
    const target = `${os.arch() === 'arm64' ? 'aarch64' : 'x86_64'}-unknown-linux-gnu`
    const cleanCrate = ['cargo', 'clean', '-p', 'warcdex-node', '--release', '--target', target, '--manifest-path', 'crates/warcdex-node/Cargo.toml']
    await once(cleanCrate)
    await once([...cleanCrate, '--target-dir', path.join(src, 'target', 'pgo', 'instrumented')])
    const crate = await once(build)
    return { commit, clean: clean.seconds, crate: crate.ok ? crate.seconds : null }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

function execText (cmd, args) {
  return (spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8' }).stdout ?? '').trim()
}
