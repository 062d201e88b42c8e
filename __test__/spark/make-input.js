// A Common-Crawl-style CDXJ for the Spark check: the spec's production row,
// and 2,000 generated captures over known hosts (unsorted).
const rows = [
  `org,wikipedia,an)/wiki/escopete 20240518015810 {"url": "https://an.wikipedia.org/wiki/Escopete", "mime": "text/html", "mime-detected": "text/html", "status": "200", "digest": "RY7PLBUFQNI2FFV5FTUQK72W6SNPXLQU", "length": "17423", "offset": "80610731", "filename": "crawl-data/CC-MAIN-2024-22/segments/1715971057216.39/warc/CC-MAIN-20240517233122-20240518023122-00000.warc.gz", "charset": "UTF-8", "languages": "spa"}`,
]
const hosts = ['www.commoncrawl.org', 'www.vg.no', 'nrk.no', 'myblog.blogspot.com', 'bbc.co.uk']
for (let i = 0; i < 2000; i++) {
  const host = hosts[(i * 7) % hosts.length]
  const status = [200, 200, 301, 404][i % 4]
  const subset = status === 200 ? 'warc' : 'crawldiagnostics'
  const url = `https://${host}/p${i}`
  const json = { url, mime: 'text/html', status: String(status), digest: 'D', length: String(100 + i), offset: String(i * 10), filename: `crawl-data/CC-MAIN-2018-05/segments/1516084886237.6/${subset}/x.warc.gz` }
  rows.push(`${host.split('.').reverse().join(',')})/p${i} 20180120${[Math.floor(i / 3600), Math.floor(i / 60) % 60, i % 60].map((v) => String(v).padStart(2, '0')).join('')} ${JSON.stringify(json)}`)
}
process.stdout.write(rows.reverse().join('\n') + '\n')
