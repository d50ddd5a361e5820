// The baseline for the report benchmark: stream a JSONL file line by line and JSON.parse each line,
// nothing else.
import {createReadStream} from 'node:fs'
import {createInterface} from 'node:readline'

let rows = 0
for await (const line of createInterface({input: createReadStream(process.argv[2]), crlfDelay: Infinity})) {
  if (line) {
    JSON.parse(line)
    rows++
  }
}
console.log(rows)
