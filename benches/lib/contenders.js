// The contenders: how each is run on a set, on how many cores, and how its
// output is checked. Each command gets the set's files as arguments and its
// standard output is written to a file under .bench-data/out/.
import path from 'node:path'
import { ROOT, run } from './proc.js'
import { VENV, VENV_PYTHON, JWARC_JAR, ZSTD_JNI_JAR, WARCIO_JS_CLI } from './tools.js'

/** Does the warcdex CLI (in the directory given) have --jobs yet? */
export function warcdexHasJobs (warcdexDir = ROOT) {
  const r = run(process.execPath, [path.join(warcdexDir, 'bin', 'warcdex.js'), 'index', '--help'])
  return /--jobs\b/.test(r.stdout + r.stderr)
}

/**
 * Each contender:
 *   id, label       as in the report
 *   cpus            the cores it is pinned to (taskset -c)
 *   output          'rows': standard output is an index, its rows are counted;
 *                   'api': it prints `rows N`; 'none': output is thrown away
 *   need            the tool (from ensureTools) it needs
 *   supports(set)   true, or why it is not run on that set
 *   argv(set)       the command
 */
export function contenders ({ hasJobs, warcdexDir = ROOT }) {
  const WARCDEX_BIN = path.join(warcdexDir, 'bin', 'warcdex.js')
  const API_COUNT = path.join(warcdexDir, 'benches', 'api-count.js')
  const gzipOnly = (set) => set.gzip ? true : 'n/a (not gzip)'
  return [
    {
      id: 'warcdex-cli',
      label: 'warcdex index (CLI)',
      cpus: '0',
      output: 'rows',
      need: null,
      supports: () => true,
      argv: (set) => [process.execPath, WARCDEX_BIN, 'index', '-q', ...set.files]
    },
    {
      id: 'warcdex-api',
      label: 'warcdex indexRecords (API)',
      cpus: '0',
      output: 'api',
      need: null,
      supports: () => true,
      argv: (set) => [process.execPath, API_COUNT, ...set.files]
    },
    {
      id: 'warcdex-cli-2',
      label: 'warcdex index --jobs 2 (2 cores)',
      cpus: '0,1',
      output: 'rows',
      need: null,
      only: ['gz', 'many'],
      supports: () => hasJobs ? true : 'not yet supported (no --jobs option)',
      argv: (set) => [process.execPath, WARCDEX_BIN, 'index', '-q', '--jobs', '2', ...set.files]
    },
    {
      id: 'cdxj-indexer',
      label: 'cdxj-indexer',
      cpus: '0',
      output: 'rows',
      need: 'python',
      supports: () => true,
      argv: (set) => [path.join(VENV, 'bin', 'cdxj-indexer'), ...set.files]
    },
    {
      id: 'fastwarc',
      label: 'FastWARC (benches/fastwarc_cdxj.py)',
      cpus: '0',
      output: 'rows',
      need: 'python',
      supports: () => true,
      argv: (set) => [VENV_PYTHON, path.join(ROOT, 'benches', 'fastwarc_cdxj.py'), ...set.files]
    },
    {
      id: 'warcio.js',
      label: 'warcio.js cdx-index',
      cpus: '0',
      output: 'rows',
      need: 'warciojs',
      supports: () => true,
      argv: (set) => [process.execPath, WARCIO_JS_CLI, 'cdx-index', ...set.files]
    },
    {
      id: 'jwarc',
      label: 'jwarc cdx',
      cpus: '0',
      output: 'rows',
      need: 'jwarc',
      supports: () => true,
      argv: (set) => ['java', '-cp', `${JWARC_JAR}${path.delimiter}${ZSTD_JNI_JAR}`, 'org.netpreserve.jwarc.tools.WarcTool', 'cdx', ...set.files]
    },
    {
      id: 'pigz',
      label: 'floor: pigz -dc > /dev/null',
      cpus: '0',
      output: 'none',
      need: 'pigz',
      supports: gzipOnly,
      argv: (set) => ['pigz', '-dc', ...set.files]
    },
    {
      id: 'gzip',
      label: 'floor: gzip -dc > /dev/null',
      cpus: '0',
      output: 'none',
      need: 'gzip',
      supports: gzipOnly,
      argv: (set) => ['gzip', '-dc', ...set.files]
    }
  ]
}

/** An index row: a key, a 14-digit timestamp, then more (CDXJ, CDX 9/11). */
export const ROW = /^\S+ \d{14} \S/
