// The peers and system tools the benchmark needs: installing what is missing
// (when allowed), and reading every version for the report.
import { createHash } from 'node:crypto'
import { cpSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ROOT, run, runLoud, which, firstLine, log } from './proc.js'

export const PEERS = path.join(ROOT, 'benches', 'peers')
export const VENV = path.join(PEERS, '.venv')
export const VENV_PYTHON = path.join(VENV, 'bin', 'python')
export const JARS = path.join(PEERS, 'jars')
export const JWARC_VERSION = '0.36.0'
// jwarc reads .warc.zst only with this optional dependency on its class path
// (the version its pom names).
export const ZSTD_JNI_VERSION = '1.5.7-4'
export const JWARC_JAR = path.join(JARS, `jwarc-${JWARC_VERSION}.jar`)
export const ZSTD_JNI_JAR = path.join(JARS, `zstd-jni-${ZSTD_JNI_VERSION}.jar`)
export const WARCIO_JS_CLI = path.join(PEERS, 'node_modules', 'warcio', 'dist', 'cli.js')

const REQUIREMENTS = path.join(PEERS, 'requirements.txt')
const DEBIAN = { time: '/usr/bin/time', pigz: 'pigz', taskset: 'taskset' }
const DEBIAN_PACKAGE = { time: 'time', pigz: 'pigz', taskset: 'util-linux' }

/**
 * Installs what is missing (unless install is false) and returns
 * { available: { name: true | 'reason' } } for: time, taskset, pigz, gzip,
 * python (venv with cdxj-indexer and fastwarc), warciojs, jwarc.
 */
export function ensureTools ({ install = true } = {}) {
  const available = {}

  // System programs from Debian.
  const missing = Object.entries(DEBIAN).filter(([, p]) => !which(p)).map(([k]) => k)
  if (missing.length && install) {
    const pkgs = missing.map((k) => DEBIAN_PACKAGE[k])
    if (process.getuid?.() === 0 && which('apt-get')) {
      log(`installing ${pkgs.join(', ')} from Debian`)
      runLoud('apt-get', ['update', '-qq']) && runLoud('apt-get', ['install', '-y', '-qq', ...pkgs])
    } else {
      log(`missing: ${pkgs.join(', ')}; install them with: sudo apt-get update && sudo apt-get install -y ${pkgs.join(' ')}`)
    }
  }
  for (const [k, p] of Object.entries(DEBIAN)) available[k] = which(p) ? true : `not installed (apt-get install ${DEBIAN_PACKAGE[k]})`
  available.gzip = which('gzip') ? true : 'not installed'
  if (available.time !== true) throw new Error('/usr/bin/time is needed to measure wall time and peak RSS: apt-get install time')

  available.python = ensurePython(install)
  available.warciojs = ensureWarcioJs(install)
  available.jwarc = ensureJwarc(install)
  return { available }
}

function pythonHas (requirements) {
  if (!existsSync(VENV_PYTHON)) return false
  const pins = requirements.map((line) => line.split('=='))
  const code = `import importlib.metadata as m\nfor n, v in ${JSON.stringify(pins)}:\n    assert m.version(n) == v, n`
  return run(VENV_PYTHON, ['-c', code]).ok
}

function ensurePython (install) {
  const requirements = readFileSync(REQUIREMENTS, 'utf8').split('\n').map((s) => s.trim()).filter((s) => s && !s.startsWith('#'))
  if (pythonHas(requirements)) return true
  if (!install) return 'not installed (run without --no-install)'
  const python = which('python3')
  if (!python) return 'not installed (no python3)'
  if (!existsSync(VENV_PYTHON) && !runLoud(python, ['-m', 'venv', VENV])) return 'not installed (python3 -m venv failed)'
  runLoud(VENV_PYTHON, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', REQUIREMENTS])
  return pythonHas(requirements) ? true : 'not installed (pip install failed)'
}

function ensureWarcioJs (install) {
  const want = JSON.parse(readFileSync(path.join(PEERS, 'package.json'), 'utf8')).dependencies.warcio
  const have = () => existsSync(WARCIO_JS_CLI) && JSON.parse(readFileSync(path.join(PEERS, 'node_modules', 'warcio', 'package.json'), 'utf8')).version === want
  if (have()) return true
  if (!install) return 'not installed (run without --no-install)'
  runLoud('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: PEERS })
  return have() ? true : 'not installed (npm ci in benches/peers failed)'
}

function ensureJwarc (install) {
  if (!which('java')) return 'not installed (no java: apt-get install default-jre-headless)'
  const have = () => existsSync(JWARC_JAR) && existsSync(ZSTD_JNI_JAR)
  if (have()) return true
  if (!install) return 'not installed (run without --no-install)'
  if (!which('mvn')) return 'not installed (no mvn: apt-get install maven)'
  for (const artifact of [`org.netpreserve:jwarc:${JWARC_VERSION}`, `com.github.luben:zstd-jni:${ZSTD_JNI_VERSION}`]) {
    runLoud('mvn', ['-q', 'dependency:copy', `-Dartifact=${artifact}`, `-DoutputDirectory=${JARS}`])
  }
  return have() ? true : 'not installed (mvn dependency:copy failed)'
}

/** Versions of everything that is measured, for the report. */
export function versions (available, warcdexDir = ROOT) {
  const v = {}
  const pkg = JSON.parse(readFileSync(path.join(warcdexDir, 'package.json'), 'utf8'))
  const git = run('git', ['describe', '--always', '--dirty', '--abbrev=10'])
  v.warcdex = `${pkg.version} (checkout at git ${git.ok ? git.stdout.trim() : 'unknown'}; addon ${addonId(warcdexDir)})`
  v.node = process.version
  if (available.python === true) {
    const r = run(VENV_PYTHON, ['-c', "import sys, importlib.metadata as m; print(sys.version.split()[0], *(m.version(n) for n in ('cdxj-indexer', 'warcio', 'surt', 'fastwarc')))"])
    const [py, cdxj, warcio, surt, fastwarc] = r.stdout.trim().split(/\s+/)
    v['cdxj-indexer'] = `${cdxj} (warcio ${warcio}, surt ${surt}; Python ${py})`
    v.fastwarc = `${fastwarc} (Python ${py}; benches/fastwarc_cdxj.py with surt ${surt})`
  }
  if (available.warciojs === true) {
    v['warcio.js'] = JSON.parse(readFileSync(path.join(PEERS, 'node_modules', 'warcio', 'package.json'), 'utf8')).version + ` (Node.js ${process.version})`
  }
  if (available.jwarc === true) {
    const java = firstLine(run('java', ['-version']).stderr)
    v.jwarc = `${JWARC_VERSION} (zstd-jni ${ZSTD_JNI_VERSION} on the class path; ${java})`
  }
  if (available.pigz === true) v.pigz = firstLine(run('pigz', ['--version']).stdout + run('pigz', ['--version']).stderr).replace(/^pigz\s*/, '')
  if (available.gzip === true) v.gzip = firstLine(run('gzip', ['--version']).stdout).replace(/^gzip\s*/, '')
  if (available.taskset === true) v.taskset = firstLine(run('taskset', ['--version']).stdout).replace(/^taskset\s*/, '')
  const deb = run('dpkg-query', ['-W', '-f', '${Version}', 'time'])
  v['GNU time'] = deb.ok ? `Debian package time ${deb.stdout.trim()}` : firstLine(run('/usr/bin/time', ['--version']).stderr)
  return v
}

/**
 * Copies the built warcdex (bin/, dist/, native/, package.json, and
 * benches/api-count.js) into .bench-data/warcdex/ and returns that directory.
 * Every warcdex row runs from this copy, so one run measures one build even
 * when the checkout is rebuilt while the benchmark runs.
 */
export function snapshotWarcdex (dataDir) {
  const dir = path.join(dataDir, 'warcdex')
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(path.join(dir, 'benches'), { recursive: true })
  for (const d of ['bin', 'dist', 'native']) cpSync(path.join(ROOT, d), path.join(dir, d), { recursive: true })
  copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'))
  copyFileSync(path.join(ROOT, 'benches', 'api-count.js'), path.join(dir, 'benches', 'api-count.js'))
  if (existsSync(path.join(ROOT, 'node_modules'))) symlinkSync(path.relative(dir, path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'))
  return dir
}

/** The built addon: short SHA-256 and build time, to tell builds apart. */
export function addonId (root = ROOT) {
  const dir = path.join(root, 'native')
  const node = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.node')) : undefined
  if (!node) return 'not built'
  const file = path.join(dir, node)
  const sha = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12)
  return `${node} sha256 ${sha}, built ${statSync(file).mtime.toISOString().replace(/\.\d+Z$/, 'Z')}`
}

/** The machine, for the report. */
export function machine () {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : ''
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown'
  const mhz = /^cpu MHz\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]
  const flags = /^flags\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.split(' ') ?? []
  const simd = ['sse4_2', 'avx2', 'avx512f', 'sha_ni', 'pclmulqdq'].filter((f) => flags.includes(f))
  return {
    cpu: model,
    mhz: mhz ? Math.round(+mhz) : undefined,
    simd,
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()} ${os.arch()}`
  }
}
