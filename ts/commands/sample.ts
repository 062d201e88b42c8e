// `warcdex sample`: a realistic, reproducible sample collection.
import { parse, UsageError } from '../args.js'
import { EXIT_OK } from '../exit.js'

export const SAMPLE_HELP = `Usage: warcdex sample [options] DIR

Writes a realistic, reproducible sample collection (request, response,
revisit, resource and metadata records over many hosts, MIME types,
statuses and dates) into DIR.

Options:
      --format FORMAT   warc.gz (default), warc, warc.zst, warc.xz, arc, arc.gz
      --files N         number of files (default 3)
      --size BYTES      approximate uncompressed size of each file (default 4000000)
      --hosts N         number of hosts (default 40)
      --seed N          random seed (default 42)
      --no-digests      leave out WARC-Payload-Digest (indexers must compute it)
  -h, --help            show this help
`


export async function sampleCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      format: { type: 'string' },
      files: { type: 'string' },
      size: { type: 'string' },
      hosts: { type: 'string' },
      seed: { type: 'string' },
      'no-digests': { type: 'boolean' },
    } as const,
    SAMPLE_HELP,
  )
  if (values.help) {
    process.stdout.write(SAMPLE_HELP)
    return EXIT_OK
  }
  if (positionals.length !== 1) throw new UsageError(`give one output DIR\n\n${SAMPLE_HELP}`)
  const num = (v: string | undefined, name: string, dflt: number) => {
    if (v === undefined) return dflt
    const n = Number(v)
    if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} needs a number, not ${v}`)
    return n
  }
  const { generateSample } = await import('../index.js')
  const files = await generateSample(positionals[0]!, {
    format: values.format ?? 'warc.gz',
    files: num(values.files, 'files', 3),
    targetBytes: num(values.size, 'size', 4_000_000),
    hosts: num(values.hosts, 'hosts', 40),
    seed: num(values.seed, 'seed', 42),
    omitPayloadDigest: values['no-digests'] ?? false,
  })
  for (const f of files) process.stderr.write(`warcdex: wrote ${f.path} (${f.records} records, ${f.bytes} bytes)\n`)
  return EXIT_OK
}
