// A Common-Crawl-style CDXJ for the Spark check: the spec's production row,
// 2,000 generated captures over known hosts, a robots.txt capture per host
// (a third partition) and one record whose offset and length exceed 2^31
// (INT32 would overflow). Written unsorted so the writer's sort is exercised.
const segment = 'crawl-data/CC-MAIN-2018-05/segments/1516084886237.6'
const rows = [
  `org,wikipedia,an)/wiki/escopete 20240518015810 {"url": "https://an.wikipedia.org/wiki/Escopete", "mime": "text/html", "mime-detected": "text/html", "status": "200", "digest": "RY7PLBUFQNI2FFV5FTUQK72W6SNPXLQU", "length": "17423", "offset": "80610731", "filename": "crawl-data/CC-MAIN-2024-22/segments/1715971057216.39/warc/CC-MAIN-20240517233122-20240518023122-00000.warc.gz", "charset": "UTF-8", "languages": "spa"}`,
]
const hosts = ['www.commoncrawl.org', 'www.vg.no', 'nrk.no', 'myblog.blogspot.com', 'bbc.co.uk']
const surt = (host, path) => `${host.replace(/^www\./, '').split('.').reverse().join(',')})${path}`
const line = (host, path, ts, json) => `${surt(host, path)} ${ts} ${JSON.stringify({ url: `https://${host}${path}`, ...json })}`
for (let i = 0; i < 2000; i++) {
  const host = hosts[(i * 7) % hosts.length]
  const status = [200, 200, 301, 404][i % 4]
  const subset = status === 200 ? 'warc' : 'crawldiagnostics'
  const ts = `20180120${[Math.floor(i / 3600), Math.floor(i / 60) % 60, i % 60].map((v) => String(v).padStart(2, '0')).join('')}`
  rows.push(line(host, `/p${i}`, ts, { mime: 'text/html', status: String(status), digest: 'D', length: String(100 + i), offset: String(i * 10), filename: `${segment}/${subset}/x.warc.gz` }))
}
hosts.forEach((host, i) => {
  rows.push(line(host, '/robots.txt', `2018012102000${i}`, { mime: 'text/plain', status: '200', digest: 'R', length: '500', offset: String(i * 500), filename: `${segment}/robotstxt/r.warc.gz` }))
})
rows.push(line('www.commoncrawl.org', '/big', '20180121030000', { mime: 'application/pdf', status: '200', digest: 'B', length: '2200000000', offset: '3000000000', filename: `${segment}/warc/big.warc.gz` }))
process.stdout.write(rows.reverse().join('\n') + '\n')
