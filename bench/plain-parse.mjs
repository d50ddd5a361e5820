// The floor of the report benchmark: stream JSONL files (the arguments) line by line and JSON.parse
// each line, nothing else.
import {createReadStream} from 'node:fs'
import {createInterface} from 'node:readline'

let rows = 0
for (const file of process.argv.slice(2)) {
  for await (const line of createInterface({input: createReadStream(file), crlfDelay: Infinity})) {
    if (line) {
      JSON.parse(line)
      rows++
    }
  }
}
console.log(rows)
