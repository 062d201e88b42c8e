// A Common-Crawl-style CDXJ for the Parquet benchmarks: unsorted lines with
// CC paths, mime-detected, charset and languages; the same lines for the
// same count on every machine (a fixed-seed integer LCG).
import { once } from 'node:events'
import { execFileSync } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** The CDXJ of `rows` lines under `.bench-data/parquet/` (written once, then reused). */
export async function ccCdxjFile(root, rows) {
  const dir = join(root, '.bench-data', 'parquet')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `cc-${rows}.cdxj`)
  if (existsSync(file)) return file
  const out = createWriteStream(file)
  await emitCcCdxj(out, rows)
  out.end()
  await once(out, 'finish')
  return file
}

/**
 * The same lines sorted as Common Crawl's and cdxj-indexer's indexes are
 * (by SURT key, then timestamp, bytewise, stable), with coreutils' sort;
 * `null` where it is missing.
 */
export async function ccCdxjSortedFile(root, rows) {
  const unsorted = await ccCdxjFile(root, rows)
  const file = unsorted.replace(/\.cdxj$/, '-sorted.cdxj')
  if (existsSync(file)) return file
  try {
    execFileSync('sort', ['-S', '1G', '-s', '-t', ' ', '-k1,1', '-k2,2', '-o', file + '.tmp', unsorted], { env: { ...process.env, LC_ALL: 'C' }, stdio: 'ignore' })
  } catch {
    return null
  }
  renameSync(file + '.tmp', file)
  return file
}

/** Bytes of a file, or of every file under a directory. */
export function diskSize(p) {
  const st = statSync(p)
  if (!st.isDirectory()) return st.size
  return readdirSync(p).reduce((a, n) => a + diskSize(join(p, n)), 0)
}

/**
 * Writes `rows` lines to the writable stream `out` (respecting back-pressure).
 * The benchmarks use seed 42; the build's training run another.
 */
export async function emitCcCdxj(out, rows, seed = 42) {
  const tlds = ['com', 'org', 'net', 'de', 'co.uk', 'no', 'fr', 'jp', 'com.au', 'blogspot.com']
  const words = ['alpha', 'beta', 'news', 'shop', 'blog', 'wiki', 'forum', 'media', 'data', 'city', 'home', 'music']
  const mimes = [['text/html', 'text/html'], ['text/html', 'application/xhtml+xml'], ['application/pdf', 'application/pdf'], ['image/jpeg', 'image/jpeg'], ['text/css', 'text/css']]
  // 32-bit LCG in integer arithmetic (doubles would lose precision and cycle early).
  const rnd = (n) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), (seed >>> 8) % n)
  for (let i = 0; i < rows; i++) {
    const tld = tlds[rnd(tlds.length)]
    const dom = `${words[rnd(words.length)]}${rnd(5000)}`
    const sub = ['www', 'm', 'en', 'shop'][rnd(4)]
    const host = `${sub}.${dom}.${tld}`
    const path = `/${words[rnd(words.length)]}/${rnd(100000)}${rnd(3) === 0 ? '?id=' + rnd(999) : ''}`
    const url = `https://${host}${path}`
    const key = `${host.split('.').reverse().join(',')})${path}`
    const status = [200, 200, 200, 200, 301, 404][rnd(6)]
    const subset = status === 200 ? 'warc' : 'crawldiagnostics'
    const [mime, det] = mimes[rnd(mimes.length)]
    const seg = `17159710572${String(rnd(100)).padStart(2, '0')}.39`
    const j = { url, mime, 'mime-detected': det, status: String(status), digest: 'RY7PLBUFQNI2FFV5FTUQK72W6SNPX' + String(rnd(1000)).padStart(3, '0'), length: String(500 + rnd(60000)), offset: String(rnd(1e9)), filename: `crawl-data/CC-MAIN-2024-22/segments/${seg}/${subset}/CC-MAIN-20240517233122-20240518023122-${String(rnd(900)).padStart(5, '0')}.warc.gz`, charset: 'UTF-8', languages: ['eng', 'deu', 'fra,eng'][rnd(3)] }
    if (!out.write(`${key} 202405${[1 + rnd(28), rnd(24), rnd(60), rnd(60)].map((v) => String(v).padStart(2, '0')).join('')} ${JSON.stringify(j)}\n`)) await once(out, 'drain')
  }
}
