// `warcdex index`: a CDXJ, CDX or NDJSON index of WARC/ARC files.
import { readFileSync, statSync } from 'node:fs'

import { parse, UsageError } from '../args.js'
import { ArchiveError } from '../errors.js'
import { EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK } from '../exit.js'
import { Interrupt } from '../interrupt.js'
import { native } from '../native.js'
import { ProgressBar } from '../progress.js'
import type { IndexFormat, IndexStyle, Problem } from '../types.js'

export const INDEX_HELP = `Usage: warcdex index [options] INPUT...

Indexes WARC and ARC files (uncompressed, .gz per record or whole-file, .xz,
.zst), compatible with cdxj-indexer (or with pywb's cdx-indexer: --style
pywb). INPUT is a file, a directory (searched recursively for *.warc, *.arc,
optionally .gz/.xz/.zst) or '-' to read a list of paths from standard input,
one per line.

Options:
  -f, --format FORMAT   cdxj (default), cdx11, cdx9 or ndjson (every field)
      --style STYLE     cdxj-indexer (default), cdx-writer (Internet Archive
                        conventions: mime 'unk', redirects, robots flags) or
                        pywb (pywb 2.x cdx-indexer: its record selection,
                        mime 'unk', status '-' for revisits, digests without
                        'sha1:', its POST append; one CDX header per output;
                        pywb's own default format is cdx11: add -f cdx11)
  -a, --all             index every record, including request and warcinfo
                        (with --style pywb: requests, but never warcinfo)
      --records LIST    index only these record types (comma-separated)
  -p, --post-append     key POST/PUT captures by their request body
  -m, --minimal         pywb's minimal index (cdx-indexer -mj; --style pywb
                        only, CDXJ or NDJSON): HTTP headers are not read, so
                        no mime (but warc/revisit) and no status; computed
                        digests cover the whole record block; not with -p
  -s, --sort            sort the output (bounded memory) and drop duplicate lines
                        (with --style pywb, duplicates are kept, as pywb does)
  -j, --jobs N          index on N threads (0: one per core; default 1); large
                        .warc.gz files are split at record boundaries, and the
                        output is the same as with one thread
      --verify          recompute block and payload digests, report mismatches
  -o, --output FILE     write the index to FILE instead of standard output
                        (it appears only when complete; an existing FILE
                        is refused without --force)
      --force           replace an existing --output FILE
      --tmp-dir DIR     where --sort spills sorted runs (default: the
                        system's temporary directory)
      --dir-root DIR    write file names relative to DIR instead of base names
      --strict          stop at the first record that cannot be read
      --skip-bad        report bad records and go on (the default)
  -q, --quiet           no progress bar, warnings or summary on standard error
  -h, --help            show this help

Exit codes: 0 everything was read; 1 some records or files could not be read
(each reported on standard error with file and byte offset) or, with
--verify, some digests did not match; 2 usage error;
3 the job failed (for example, the output could not be written);
130/143 interrupted by SIGINT/SIGTERM (the output file is left as it was).
`

function readPathList(): string[] {
  return readFileSync(0, 'utf8')
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trim() !== '')
}

export async function indexCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      format: { type: 'string', short: 'f' },
      style: { type: 'string' },
      all: { type: 'boolean', short: 'a' },
      records: { type: 'string' },
      'post-append': { type: 'boolean', short: 'p' },
      minimal: { type: 'boolean', short: 'm' },
      sort: { type: 'boolean', short: 's' },
      jobs: { type: 'string', short: 'j' },
      verify: { type: 'boolean' },
      output: { type: 'string', short: 'o' },
      force: { type: 'boolean' },
      'tmp-dir': { type: 'string' },
      'dir-root': { type: 'string' },
      strict: { type: 'boolean' },
      'skip-bad': { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
    } as const,
    INDEX_HELP,
  )
  if (values.help) {
    process.stdout.write(INDEX_HELP)
    return EXIT_OK
  }
  const format = (values.format ?? 'cdxj') as IndexFormat
  if (!['cdxj', 'cdx11', 'cdx9', 'ndjson'].includes(format)) throw new UsageError(`unknown --format ${format}\n\n${INDEX_HELP}`)
  const style = (values.style ?? 'cdxj-indexer') as IndexStyle
  if (!['cdxj-indexer', 'cdx-writer', 'pywb'].includes(style)) throw new UsageError(`unknown --style ${style}\n\n${INDEX_HELP}`)
  if (values.minimal && style !== 'pywb') throw new UsageError('--minimal is a pywb option: use it with --style pywb')
  if (values.minimal && values['post-append']) throw new UsageError('--minimal and --post-append exclude each other (as in pywb)')
  if (values.minimal && (format === 'cdx11' || format === 'cdx9')) throw new UsageError('--minimal writes cdxj (or ndjson), not CDX')
  if (values.strict && values['skip-bad']) throw new UsageError('--strict and --skip-bad exclude each other')
  if (values.all && values.records) throw new UsageError('--all and --records exclude each other')
  if (positionals.length === 0) throw new UsageError(`no INPUT given\n\n${INDEX_HELP}`)
  const jobs = values.jobs === undefined ? 1 : Number(values.jobs)
  if (!Number.isInteger(jobs) || jobs < 0) throw new UsageError(`--jobs needs a whole number, not ${values.jobs}`)

  const inputs = positionals.flatMap((p) => (p === '-' ? readPathList() : [p]))
  const quiet = values.quiet ?? false
  // An input that cannot be opened is reported, and the others are indexed.
  const files: string[] = []
  let unreadable = 0
  for (const input of inputs) {
    try {
      files.push(...native.expandInputs([input]))
    } catch (e) {
      unreadable++
      if (!quiet) process.stderr.write(`warcdex: skipped: ${(e as Error).message}\n`)
    }
  }
  if (files.length === 0) {
    if (unreadable < inputs.length) process.stderr.write(`warcdex: no WARC or ARC files in ${inputs.join(', ')}\n`)
    return EXIT_BAD_INPUT
  }
  const sizes = files.map((f) => {
    try {
      return statSync(f).size
    } catch {
      return 0
    }
  })
  const total = sizes.reduce((a, b) => a + b, 0)
  const bar = !quiet && process.stderr.isTTY ? new ProgressBar(total) : undefined
  let doneBefore = 0
  let fileIndex = -1
  let bad = 0
  const interrupt = new Interrupt()
  const started = Date.now()
  try {
    const { writeIndex } = await import('../index.js')
    const summary = await writeIndex(files, {
      format,
      style,
      records: values.all ? 'all' : values.records ? values.records.split(',') : 'default',
      postAppend: values['post-append'] ?? false,
      minimal: values.minimal ?? false,
      sort: values.sort ?? false,
      jobs,
      verify: values.verify ?? false,
      output: values.output,
      force: values.force ?? false,
      tmpDir: values['tmp-dir'],
      dirRoot: values['dir-root'],
      strict: values.strict ?? false,
      signal: interrupt.signal,
      onProgress: ({ file, fileBytes, entries }) => {
        if (!bar) return
        const i = files.indexOf(file)
        if (i !== fileIndex && i >= 0) {
          doneBefore = sizes.slice(0, i).reduce((a, b) => a + b, 0)
          fileIndex = i
        }
        bar.update(doneBefore + fileBytes, entries)
      },
      onNote: (message) => {
        if (!quiet) process.stderr.write(`warcdex: note: ${message}\n`)
      },
      onProblem: (p: Problem) => {
        if (p.event === 'skipped' || p.code === 'EDIGEST') bad++
        if (quiet) return
        bar?.clear()
        process.stderr.write(`warcdex: ${p.event === 'skipped' ? 'skipped' : 'warning'}: ${p.message}\n`)
      },
    })
    bar?.clear()
    // The reader of our output went away (`| head`): nothing more to say.
    if (summary.brokenPipe) return EXIT_OK
    if (!quiet) {
      const secs = ((Date.now() - started) / 1000).toFixed(1)
      process.stderr.write(
        `warcdex: ${summary.entries} rows from ${summary.records} records in ${summary.files} files; ` +
          `${summary.skipped} skipped (${summary.bytesSkipped} bytes), ${summary.warnings} warnings; ${secs}s` +
          (summary.cancelled ? ' (interrupted)' : '') +
          '\n',
      )
    }
    if (summary.cancelled) return interrupt.exitCode ?? EXIT_INTERRUPTED
    // Digest mismatches found by --verify also count as bad input.
    return summary.skipped > 0 || bad > 0 || unreadable > 0 ? EXIT_BAD_INPUT : EXIT_OK
  } catch (e) {
    bar?.clear()
    // A job stopped by a signal may end in an error instead of a summary.
    if (interrupt.exitCode !== undefined) return interrupt.exitCode
    if (e instanceof ArchiveError) {
      process.stderr.write(`warcdex: stopped (--strict): ${e.message}\n`)
      return EXIT_BAD_INPUT
    }
    throw e
  } finally {
    interrupt.dispose()
  }
}
