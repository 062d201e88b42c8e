// The warcdex API contender of `npm run bench`: iterates indexRecords over the
// given files and counts the rows. It prints `rows N`, nothing else.
//
//   node benches/api-count.js FILE...
import { indexRecords } from '../dist/index.js'

const files = process.argv.slice(2)
if (files.length === 0) {
  process.stderr.write('usage: node benches/api-count.js FILE...\n')
  process.exit(2)
}

let rows = 0
let problems = 0
for await (const row of indexRecords(files, { onProblem: () => { problems++ } })) {
  if (row.urlkey) rows++
}
process.stdout.write(`rows ${rows}\n`)
if (problems) process.stderr.write(`${problems} records could not be read\n`)
