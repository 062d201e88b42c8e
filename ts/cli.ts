// The `warcdex` command: one file per command under commands/. Data goes to
// standard output, progress and problems to standard error; exit codes in
// exit.ts.
import { UsageError } from './args.js'
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from './exit.js'
import { Interrupt } from './interrupt.js'
import { native } from './native.js'
import { OutputExistsError } from './output.js'
// Commands load their modules when run: a short job (or `--help`) then
// starts without the rest (importing the CLI took 78 ms, then 72; `node`
// alone 63).

const MAIN_HELP = `warcdex: web-archive indexing

Usage: warcdex <command> [options]

Commands:
  index    write a CDXJ, CDX or NDJSON index of WARC/ARC files
  sample   write a realistic sample collection of WARC/ARC files
  summary  summarize a collection as cdx-summary does (text, JSON or HTML)
  parquet  write a cc-index-table Parquet dataset from WARC/ARC files or CDX(J)
  query    run SQL over a Parquet dataset with DuckDB (view ccindex)
  dump     page-dump segments (data_*.tar.xz): verify, lookup, extract, to-warc

Run 'warcdex <command> --help' for a command's options.
`

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  // index and parquet stop their jobs gracefully on a signal; the other
  // commands exit at once, after removing their temporary files.
  const interrupt = command === 'index' || command === 'parquet' ? undefined : new Interrupt(0)
  try {
    switch (command) {
      case 'index':
        return await (await import('./commands/index.js')).indexCommand(rest)
      case 'dump': return await (await import('./commands/dump.js')).dumpCommand(rest)
      case 'sample':
        return await (await import('./commands/sample.js')).sampleCommand(rest)
      case 'summary': return await (await import('./commands/summary.js')).summaryCommand(rest)
      case 'parquet':
        return await (await import('./commands/parquet.js')).parquetCommand(rest)
      case 'query':
        return await (await import('./commands/query.js')).queryCommand(rest)
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        process.stdout.write(MAIN_HELP)
        return command === undefined ? EXIT_USAGE : EXIT_OK
      case '--version':
      case '-V':
        process.stdout.write(`warcdex ${native.nativeVersion()}\n`)
        return EXIT_OK
      default:
        throw new UsageError(`unknown command '${command}'\n\n${MAIN_HELP}`)
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof OutputExistsError) {
      process.stderr.write(`warcdex: ${e.message}${e.message.endsWith('\n') ? '' : '\n'}`)
      return EXIT_USAGE
    }
    process.stderr.write(`warcdex: ${(e as Error).message}\n`)
    return EXIT_FAILED
  } finally {
    interrupt?.dispose()
  }
}
