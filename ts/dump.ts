// Page-dump segments (data_*.tar.xz + manifest_*.tsv.xz + master_manifest.tsv):
// verify, look up, extract, convert to WARC, generate. The work runs in Rust
// on libuv worker threads; problems arrive as they are found.
import { native } from './native.js'
import { nativeJob } from './output.js'

/** One problem, named by segment (file base name) and page id (null: the whole file). */
export interface DumpProblem {
  segment: string
  id: number | null
  /** e.g. md5-mismatch, length-mismatch, header-missing, header-malformed, header-mismatch,
   * extra-page, missing-page, id-out-of-range, truncated, not-utf8, not-html,
   * manifest-header, file-size, file-md5, file-missing */
  code: string
  message: string
}

export interface DumpVerifySummary {
  files: number
  pages: number
  verified: number
  problems: number
  bytes: number
}

export interface DumpVersion {
  segment: string
  id: number
  timestamp: number
  url: string
}

export interface DumpLookupResult {
  url: string
  /** Time the lookup took, in microseconds (the table's index is read once per call). */
  micros: number
  /** Latest first: greatest timestamp, then greatest id. */
  versions: DumpVersion[]
}

export interface DumpBuildSummary {
  manifests: number
  rows: number
  blocks: number
  bytes: number
}

export interface DumpToWarcSummary {
  segments: number
  records: number
  pagesSkipped: number
  problems: number
  bytes: number
}

export interface DumpGenerateOptions {
  seed?: number
  segments?: number
  idsPerSegment?: number
  firstId?: number
  pageBytes?: number
  gapRate?: number
  repeatRate?: number
  crlfRate?: number
  badMd5Rate?: number
  badLengthRate?: number
  /** missing-header, malformed-header, page-not-in-manifest, row-with-no-page, id-out-of-range,
   * truncated-xz, non-utf8, non-html-entry, manifest-header-differs */
  bad?: string[]
  xzLevel?: number
  /** Uncompressed bytes per xz block: several blocks (seekable). */
  blockSize?: number
  threads?: number
  master?: boolean
  hosts?: number
  /** Only manifest files, for lookup tables. */
  manifestsOnly?: boolean
}

export interface DumpSegmentReport {
  data: string
  manifest: string
  start: number
  end: number
  pages: number
  rows: number
  dataBytes: number
  uncompressedBytes: number
  crlfIds: number[]
  badMd5Ids: number[]
  badLengthIds: number[]
  planted: { bad: string; id: number | null }[]
}

export interface DumpGenerateReport {
  segments: DumpSegmentReport[]
  master: string | null
  /** URLs requested more than once: [id, timestamp] of each clean version. */
  repeated: { url: string; versions: [number, number][] }[]
}

type ProblemCallback = ((json: string) => void) | null

interface DumpNative {
  dumpVerify(inputs: string[], onProblem?: ProblemCallback): Promise<string>
  dumpLookup(dir: string | null, table: string | null, urls: string[], onProblem?: ProblemCallback): Promise<string>
  dumpBuildLookup(inputs: string[], output: string, sortBudget: number | null, force: boolean, onProblem?: ProblemCallback): Promise<string>
  dumpExtract(segment: string, id: number, bodyOnly?: boolean): Promise<Buffer>
  dumpExtractInfo(segment: string, id: number): Promise<string>
  dumpToWarc(segments: string[], output: string, level: number | null, force: boolean, onProblem?: ProblemCallback): Promise<string>
  dumpGenerate(dir: string, optionsJson: string): Promise<string>
}

const dn = native as unknown as DumpNative

function relay(onProblem?: (p: DumpProblem) => void): ProblemCallback {
  if (!onProblem) return null
  return (json: string) => onProblem(JSON.parse(json) as DumpProblem)
}

/** Lets pending problem callbacks run before the promise's value is used. */
async function settle<T>(p: Promise<string>): Promise<T> {
  const v = JSON.parse(await nativeJob(p)) as T
  await new Promise((r) => setImmediate(r))
  return v
}

/** Verifies segment files, directories and master manifests (size and md5 of each
 * file; length, md5 and header line of each page). */
export function verifyDump(inputs: string[], options: { onProblem?: (p: DumpProblem) => void } = {}): Promise<DumpVerifySummary> {
  return settle(dn.dumpVerify(inputs, relay(options.onProblem)))
}

/** Every version of each URL, latest first, from a lookup table or the manifests alone. */
export function lookupDump(
  urls: string | string[],
  options: { manifests?: string; table?: string; onProblem?: (p: DumpProblem) => void },
): Promise<DumpLookupResult[]> {
  const list = Array.isArray(urls) ? urls : [urls]
  return settle(dn.dumpLookup(options.manifests ?? null, options.table ?? null, list, relay(options.onProblem)))
}

/** Writes the sorted, SURT-keyed lookup table of the manifests in `inputs` (whole or not at all; an existing one only with `force`). */
export function buildDumpLookup(
  inputs: string[],
  output: string,
  options: { sortBudget?: number; force?: boolean; onProblem?: (p: DumpProblem) => void } = {},
): Promise<DumpBuildSummary> {
  return settle(dn.dumpBuildLookup(inputs, output, options.sortBudget ?? null, options.force ?? false, relay(options.onProblem)))
}

/** Page `id` of a segment: the stored file, or only the response after the header line. */
export function extractPage(segment: string, id: number, options: { bodyOnly?: boolean } = {}): Promise<Buffer> {
  return dn.dumpExtract(segment, id, options.bodyOnly ?? false)
}

/** Where extraction started (xz block) and how many decoded bytes it read. */
export async function extractPageInfo(
  segment: string,
  id: number,
): Promise<{ found: boolean; blocks: number; startBlock: number; decodedBytes: number }> {
  return JSON.parse(await dn.dumpExtractInfo(segment, id))
}

/** Converts segments into one WARC 1.1 file (warcinfo + one resource record per page, gzip per record), published when complete; an existing one only with `force`. */
export function dumpToWarc(
  segments: string[],
  output: string,
  options: { level?: number; force?: boolean; onProblem?: (p: DumpProblem) => void } = {},
): Promise<DumpToWarcSummary> {
  return settle(dn.dumpToWarc(segments, output, options.level ?? null, options.force ?? false, relay(options.onProblem)))
}

/** Writes generated segments (and a master manifest) into `dir`; the report says where every quirk is. */
export function generateDump(dir: string, options: DumpGenerateOptions = {}): Promise<DumpGenerateReport> {
  return settle(dn.dumpGenerate(dir, JSON.stringify(options)))
}

/** The problem as one line: `SEGMENT ID CODE: message`. */
export function problemLine(p: DumpProblem): string {
  return `${p.segment} ${p.id ?? '-'} ${p.code}: ${p.message}`
}
