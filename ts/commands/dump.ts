// `warcdex dump ...`: page-dump segments (data_*.tar.xz with TSV manifests).
// Reports go to standard output (one line per problem, or NDJSON with --json);
// summaries to standard error. Exit codes as for `warcdex index`: 0 all good,
// 1 some check failed or some input could not be read, 2 usage error.
import { existsSync } from 'node:fs'
import { join } from 'node:path'

import { parse, UsageError } from '../args.js'
import { EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE } from '../exit.js'
import { writeWhole } from '../output.js'
import {
  buildDumpLookup,
  dumpToWarc,
  extractPage,
  generateDump,
  lookupDump,
  problemLine,
  verifyDump,
  type DumpProblem,
} from '../dump.js'


const TABLE_NAME = 'dump-lookup.wdxl'

export const DUMP_HELP = `Usage: warcdex dump <command> [options]

Page-dump segments: data_START_END.tar.xz archives (the manifest first, then
\${id}.html pages opening with '<!-- timestamp<TAB>url -->'), their
manifest_START_END.tsv.xz manifests and master_manifest.tsv.

Commands:
  verify INPUT...           check files against the master manifest (size,
                            md5) and pages against their rows (length, md5,
                            header line); INPUT: segments, directories or a
                            master manifest. One line per problem
                            (SEGMENT ID CODE: message); exit 1 if any
  lookup URL... --manifests DIR
                            every version of URL, latest first
                            (segment id timestamp url); uses DIR/${TABLE_NAME}
                            when present (or --table FILE), else reads the
                            manifests
  build-lookup DIR... [-o FILE] [--force]
                            write the sorted lookup table (default
                            DIR/${TABLE_NAME}; --force replaces one)
  extract SEGMENT ID [--body] [-o FILE] [--force]
                            print one page (--body: without its header line)
  to-warc SEGMENT... -o OUT.warc.gz [--level N] [--force]
                            WARC 1.1, warcinfo + one resource record per page
                            (an existing OUT only with --force)
  generate DIR [options]    write generated segments that follow the spec
                            (for tests and benchmarks):
      --segments N          segments (default 2)
      --ids N               ids per segment (default 100; gaps leave fewer pages)
      --first-id N          first id (default 0)
      --page-bytes N        mean page size in bytes (default 6000)
      --bad LIST            plant bad inputs, comma-separated: missing-header,
                            malformed-header, page-not-in-manifest,
                            row-with-no-page, id-out-of-range, truncated-xz,
                            non-utf8, non-html-entry, manifest-header-differs
      --bad-md5-rate R      share of pages whose manifest md5 is wrong
      --bad-length-rate R   share of pages whose manifest length is wrong
      --xz-level N          xz preset (default 6)
      --threads N           xz encoder threads
      --block-size BYTES    xz block size (several blocks let extract seek)
      --seed N              generator seed (default 42)
      --manifests-only      manifests without data files (lookup benchmarks)

Options:
  --json      NDJSON instead of lines (verify, lookup, to-warc problems)
  -q, --quiet no summary on standard error
  -h, --help  show this help
`


function problemPrinter(json: boolean): (p: DumpProblem) => void {
  return (p) => process.stdout.write(json ? `${JSON.stringify(p)}\n` : `${problemLine(p)}\n`)
}

export async function dumpCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  switch (sub) {
    case 'verify':
      return await verify(rest)
    case 'lookup':
      return await lookup(rest)
    case 'build-lookup':
      return await buildLookup(rest)
    case 'extract':
      return await extract(rest)
    case 'to-warc':
      return await toWarc(rest)
    case 'generate':
      return await generate(rest)
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(DUMP_HELP)
      return sub === undefined ? EXIT_USAGE : EXIT_OK
    default:
      throw new UsageError(`unknown dump command '${sub}'\n\n${DUMP_HELP}`)
  }
}

function help(): number {
  process.stdout.write(DUMP_HELP)
  return EXIT_OK
}

async function verify(rest: string[]): Promise<number> {
  const { values, positionals } = parse(rest, { json: { type: 'boolean' }, quiet: { type: 'boolean', short: 'q' } }, DUMP_HELP)
  if (values.help) return help()
  if (positionals.length === 0) throw new UsageError('dump verify needs segments, directories or a master manifest')
  const s = await verifyDump(positionals, { onProblem: problemPrinter(values.json ?? false) })
  if (!values.quiet) {
    process.stderr.write(`warcdex: ${s.files} files, ${s.pages} pages (${s.verified} verified), ${s.problems} problems\n`)
  }
  return s.problems > 0 ? EXIT_BAD_INPUT : EXIT_OK
}

async function lookup(rest: string[]): Promise<number> {
  const { values, positionals } = parse(rest, {
      manifests: { type: 'string' },
      table: { type: 'string' },
      json: { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
    }, DUMP_HELP)
  if (values.help) return help()
  if (positionals.length === 0) throw new UsageError('dump lookup needs a URL')
  if (!values.manifests && !values.table) throw new UsageError('dump lookup needs --manifests DIR (or --table FILE)')
  let table = values.table
  if (!table && values.manifests && existsSync(join(values.manifests, TABLE_NAME))) table = join(values.manifests, TABLE_NAME)
  const problems: DumpProblem[] = []
  const results = await lookupDump(positionals, {
    manifests: values.manifests,
    table,
    onProblem: (p) => problems.push(p),
  })
  if (!values.quiet) for (const p of problems) process.stderr.write(`warcdex: ${problemLine(p)}\n`)
  let found = 0
  for (const r of results) {
    for (const v of r.versions) {
      found++
      process.stdout.write(values.json ? `${JSON.stringify(v)}\n` : `${v.segment} ${v.id} ${v.timestamp} ${v.url}\n`)
    }
  }
  return found > 0 ? EXIT_OK : EXIT_BAD_INPUT
}

async function buildLookup(rest: string[]): Promise<number> {
  const { values, positionals } = parse(rest, { output: { type: 'string', short: 'o' }, force: { type: 'boolean' }, quiet: { type: 'boolean', short: 'q' } }, DUMP_HELP)
  if (values.help) return help()
  if (positionals.length === 0) throw new UsageError('dump build-lookup needs manifest directories or files')
  const out = values.output ?? join(positionals[0]!, TABLE_NAME)
  let problems = 0
  const s = await buildDumpLookup(positionals, out, {
    force: values.force ?? false,
    onProblem: (p) => {
      problems++
      if (!values.quiet) process.stderr.write(`warcdex: ${problemLine(p)}\n`)
    },
  })
  if (!values.quiet) process.stderr.write(`warcdex: ${s.rows} rows from ${s.manifests} manifests in ${s.blocks} blocks: ${out}\n`)
  return problems > 0 ? EXIT_BAD_INPUT : EXIT_OK
}

async function extract(rest: string[]): Promise<number> {
  const { values, positionals } = parse(rest, { body: { type: 'boolean' }, output: { type: 'string', short: 'o' }, force: { type: 'boolean' } }, DUMP_HELP)
  if (values.help) return help()
  if (positionals.length !== 2 || !/^\d+$/.test(positionals[1]!)) throw new UsageError('dump extract needs SEGMENT ID')
  let page: Buffer
  try {
    page = await extractPage(positionals[0]!, Number(positionals[1]), { bodyOnly: values.body ?? false })
  } catch (e) {
    process.stderr.write(`warcdex: ${(e as Error).message}\n`)
    return EXIT_BAD_INPUT
  }
  if (values.output) writeWhole(values.output, page, values.force ?? false)
  else await new Promise<void>((resolve, reject) => process.stdout.write(page, (err) => (err ? reject(err) : resolve())))
  return EXIT_OK
}

async function toWarc(rest: string[]): Promise<number> {
  const { values, positionals } = parse(rest, {
      output: { type: 'string', short: 'o' },
      level: { type: 'string' },
      force: { type: 'boolean' },
      json: { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
    }, DUMP_HELP)
  if (values.help) return help()
  if (positionals.length === 0 || !values.output) throw new UsageError('dump to-warc needs SEGMENT... -o OUT.warc.gz')
  const level = values.level === undefined ? undefined : Number(values.level)
  if (level !== undefined && !(level >= 0 && level <= 9)) throw new UsageError('--level must be 0-9')
  const s = await dumpToWarc(positionals, values.output, {
    level,
    force: values.force ?? false,
    onProblem: (p) => process.stderr.write(values.json ? `${JSON.stringify(p)}\n` : `warcdex: ${problemLine(p)}\n`),
  })
  if (!values.quiet) process.stderr.write(`warcdex: ${s.records} records from ${s.segments} segments, ${s.problems} problems: ${values.output}\n`)
  return s.problems > 0 ? EXIT_BAD_INPUT : EXIT_OK
}

async function generate(rest: string[]): Promise<number> {
  const { values, positionals } = parse(rest, {
      segments: { type: 'string' },
      ids: { type: 'string' },
      'first-id': { type: 'string' },
      'page-bytes': { type: 'string' },
      bad: { type: 'string' },
      'bad-md5-rate': { type: 'string' },
      'bad-length-rate': { type: 'string' },
      'block-size': { type: 'string' },
      'xz-level': { type: 'string' },
      threads: { type: 'string' },
      seed: { type: 'string' },
      'manifests-only': { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
    }, DUMP_HELP)
  if (values.help) return help()
  if (positionals.length !== 1) throw new UsageError('dump generate needs DIR')
  const num = (v: string | undefined): number | undefined => {
    if (v === undefined) return undefined
    const n = Number(v)
    if (!Number.isFinite(n) || n < 0) throw new UsageError(`not a number: ${v}`)
    return n
  }
  const r = await generateDump(positionals[0]!, {
    segments: num(values.segments),
    idsPerSegment: num(values.ids),
    firstId: num(values['first-id']),
    pageBytes: num(values['page-bytes']),
    bad: values.bad ? values.bad.split(',') : [],
    badMd5Rate: num(values['bad-md5-rate']),
    badLengthRate: num(values['bad-length-rate']),
    blockSize: num(values['block-size']),
    xzLevel: num(values['xz-level']),
    threads: num(values.threads),
    seed: num(values.seed),
    manifestsOnly: values['manifests-only'] ?? false,
  })
  if (!values.quiet) {
    for (const s of r.segments ?? []) process.stderr.write(`warcdex: wrote ${s.data} (${s.pages} pages, ${s.dataBytes} bytes)\n`)
  }
  return EXIT_OK
}
