// Command-line options of `npm run bench` (benches/run.js).
import { parseArgs } from 'node:util'

export const USAGE = `Usage: npm run bench -- [options]

Generates the benchmark sets into .bench-data/ (reproducibly, from --seed),
runs warcdex and its peers on them, and writes a report.

Options:
  --scale X          scale every set's size (default 1 = full size; env
                     WARCDEX_BENCH_SCALE); e.g. 0.05 for a quick run
  --quick            the same as --scale 0.05 --runs 3
  --runs N           timed runs per contender and set (default 5; env
                     WARCDEX_BENCH_RUNS)
  --seed N           generator seed (default 42)
  --sets LIST        only these sets: gz,warc,many,arc,zst,nodigest
  --contenders LIST  only these contenders (ids as in the report; warcdex-cli
                     is always run, it is the reference)
  --timeout S        kill a run after S seconds (default: scaled to the set)
  --regen            regenerate the sets even if they are up to date
  --no-install       do not install missing peers; show them as not installed
  --build-time       time the addon's release build (default at full scale)
  --no-build-time    do not
  --readme           write the tables into benches/README.md (default when the
                     run is full-size, all sets, all contenders, >= 5 runs)
  --no-readme        do not (the report always goes to .bench-data/report.md)
  --from-results F   measure nothing: write the report again from a results
                     file of an earlier run (.bench-data/results/*.json);
                     with --readme, into benches/README.md too
  -h, --help         show this help`

export function parseOptions (argv, env = process.env) {
  const { values } = parseArgs({
    args: argv,
    options: {
      scale: { type: 'string' },
      quick: { type: 'boolean' },
      runs: { type: 'string' },
      seed: { type: 'string' },
      sets: { type: 'string' },
      contenders: { type: 'string' },
      timeout: { type: 'string' },
      regen: { type: 'boolean' },
      'no-install': { type: 'boolean' },
      'build-time': { type: 'boolean' },
      'no-build-time': { type: 'boolean' },
      readme: { type: 'boolean' },
      'no-readme': { type: 'boolean' },
      'from-results': { type: 'string' },
      help: { type: 'boolean', short: 'h' }
    },
    strict: true,
    allowPositionals: false
  })
  if (values.help) return { help: true }

  const number = (name, text, fallback, check) => {
    if (text === undefined || text === '') return fallback
    const n = Number(text)
    if (!Number.isFinite(n) || !check(n)) throw new Error(`--${name}: not a valid value: ${text}`)
    return n
  }
  const quick = Boolean(values.quick)
  const scale = number('scale', values.scale ?? env.WARCDEX_BENCH_SCALE, quick ? 0.05 : 1, (n) => n > 0 && n <= 16)
  const runs = number('runs', values.runs ?? env.WARCDEX_BENCH_RUNS, quick ? 3 : 5, (n) => Number.isInteger(n) && n >= 1)
  const seed = number('seed', values.seed, 42, (n) => Number.isInteger(n) && n >= 0)
  const timeout = number('timeout', values.timeout, undefined, (n) => n > 0)
  const list = (text) => text ? text.split(',').map((s) => s.trim()).filter(Boolean) : undefined

  const opts = {
    scale,
    runs,
    seed,
    timeout,
    sets: list(values.sets),
    contenders: list(values.contenders),
    regen: Boolean(values.regen),
    install: !values['no-install'],
    fromResults: values['from-results'],
    argv
  }
  const complete = scale === 1 && !opts.sets && !opts.contenders && runs >= 5
  opts.buildTime = values['no-build-time'] ? false : values['build-time'] ? true : scale >= 1
  opts.readme = values['no-readme'] ? false : values.readme ? true : complete
  return opts
}
