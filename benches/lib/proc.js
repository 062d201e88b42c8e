// Small helpers for running commands and finding programs.
import { spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root (benches/lib/../..). Every path the harness prints is relative to it. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

/** A path relative to the repository root, for reports and logs. */
export const rel = (p) => path.relative(ROOT, path.resolve(ROOT, p)) || '.'

/** Runs a command to completion; returns { ok, status, stdout, stderr }. Never throws. */
export function run (cmd, args = [], opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, ...opts })
  return {
    ok: !r.error && r.status === 0,
    status: r.status,
    stdout: r.stdout ?? '',
    stderr: (r.stderr ?? '') + (r.error ? String(r.error.message) : '')
  }
}

/** Like run(), with output shown (for installs and builds), and returns ok. */
export function runLoud (cmd, args = [], opts = {}) {
  log(`$ ${[cmd, ...args].join(' ')}`)
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], ...opts })
  return !r.error && r.status === 0
}

/** The full path of a program on PATH, or null. */
export function which (name) {
  if (name.includes('/')) return isExecutable(name) ? name : null
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue
    const p = path.join(dir, name)
    if (isExecutable(p)) return p
  }
  return null
}

export function isExecutable (p) {
  try {
    accessSync(p, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** First non-empty line of a text. */
export const firstLine = (text) => (text ?? '').split('\n').map((s) => s.trim()).find(Boolean) ?? ''

export function log (...args) {
  process.stderr.write(args.join(' ') + '\n')
}
