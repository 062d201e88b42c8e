#!/usr/bin/env node
// `npm run build` (also run by `npm ci`): the addon, then the TypeScript.
//
// The addon is built with profile-guided optimisation for the machine's own
// target: a first build instrumented to count branches and calls runs
// scripts/pgo-train.mjs (generated data through every hot path:
// WARC/ARC indexing, summaries, Parquet, page dumps), and the release build
// is then laid out by those counts. On the Parquet benchmark that is about
// 8% less time (benches/README.md). It needs LLVM's llvm-profdata as rustup's
// llvm-tools component ships it (added here when missing); without it, or
// with WARCDEX_PGO=0, the addon is built once, as `npm run build:native` does.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const pgoDir = join(root, 'target', 'pgo')

function run (cmd, args, env = {}, shell = false) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env }, shell })
  if (r.status !== 0) {
    process.stderr.write(`build: ${cmd} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`})\n`)
    process.exit(r.status || 1)
  }
}

function output (cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8' })
  return r.status === 0 ? r.stdout.trim() : null
}

/** One of package.json's scripts, `extra` appended to its command. */
function npmRun (script, extra = [], env = {}) {
  const tail = ['run', script, ...(extra.length ? ['--', ...extra] : [])]
  // Under npm (npm ci, npm run build) its own CLI; else `npm` on the PATH.
  const npmCli = process.env.npm_execpath
  if (npmCli?.endsWith('.js')) run(process.execPath, [npmCli, ...tail], env)
  else run('npm', tail, env, process.platform === 'win32')
}

/** `napi build` of the binding crate into native/ (package.json's build:native). */
const buildAddon = (extra = [], env = {}) => npmRun('build:native', extra, env)
const buildTs = () => npmRun('build:ts')

/** llvm-profdata of the Rust toolchain, added with rustup when missing; or why not. */
function profdataTool (host) {
  const sysroot = output('rustc', ['--print', 'sysroot'])
  if (!sysroot) return { why: 'rustc --print sysroot failed' }
  const tool = join(sysroot, 'lib', 'rustlib', host, 'bin', process.platform === 'win32' ? 'llvm-profdata.exe' : 'llvm-profdata')
  if (!existsSync(tool) && output('rustup', ['component', 'add', 'llvm-tools']) === null) {
    return { why: "rustup could not add the 'llvm-tools' component" }
  }
  return existsSync(tool) ? { tool } : { why: `${tool} is missing` }
}

function plainBuild (why) {
  if (why) process.stderr.write(`build: without profile-guided optimisation (${why})\n`)
  buildAddon()
  buildTs()
}

const host = /^host: (\S+)$/m.exec(output('rustc', ['-vV']) ?? '')?.[1]
if (process.env.WARCDEX_PGO === '0') {
  plainBuild()
} else if (!host) {
  plainBuild('rustc -vV names no host')
} else {
  const { tool, why } = profdataTool(host)
  if (!tool) {
    plainBuild(why)
  } else {
    const profiles = join(pgoDir, 'profiles')
    const merged = join(pgoDir, 'warcdex.profdata')
    rmSync(profiles, { recursive: true, force: true })
    mkdirSync(profiles, { recursive: true })
    // An explicit --target keeps the flags off build scripts and proc macros:
    // only the addon's own code is instrumented, then optimised. Passed
    // encoded (separated by 0x1f), so that a path with spaces stays whole.
    const flags = (f) => {
      const given = process.env.CARGO_ENCODED_RUSTFLAGS?.split('\x1f') ?? process.env.RUSTFLAGS?.split(/\s+/) ?? []
      return { CARGO_ENCODED_RUSTFLAGS: [...given.filter(Boolean), f].join('\x1f') }
    }
    process.stderr.write('build: instrumented addon (profile-guided optimisation, 1 of 2)\n')
    buildAddon(['--target', host, '--target-dir', join(pgoDir, 'instrumented')], flags(`-Cprofile-generate=${profiles}`))
    buildTs()
    process.stderr.write('build: training run (scripts/pgo-train.mjs)\n')
    run(process.execPath, [join(root, 'scripts', 'pgo-train.mjs')], { LLVM_PROFILE_FILE: join(profiles, 'warcdex-%p-%m.profraw') })
    const raw = readdirSync(profiles).filter((f) => f.endsWith('.profraw')).map((f) => join(profiles, f))
    if (raw.length === 0) {
      process.stderr.write('build: the training run wrote no profile\n')
      process.exit(1)
    }
    run(tool, ['merge', '-o', merged, ...raw])
    process.stderr.write('build: optimised addon (profile-guided optimisation, 2 of 2)\n')
    buildAddon(['--target', host], flags(`-Cprofile-use=${merged}`))
  }
}
