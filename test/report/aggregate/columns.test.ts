// The column encodings: every value comes back as the very double pushed (NaN for missing), in the
// narrowest encoding that can, and sorting gives the built-in sort's order.
import {expect} from 'chai'
import {
  CHUNK_MAX,
  Column,
  FlagColumn,
  presentSorted,
  sortNumbers,
  type Chunk,
} from '../../../src/report/aggregate/columns.js'
import {mulberry32} from '../../../src/stats/random.js'

const encodings = (column: Column) =>
  column.chunks.map((c) => `${c.data ? c.data.constructor.name : 'constant'}/${c.scale}`)

/** Pushes the values and checks that they all come back, bit for bit. */
function roundTrip(values: number[]): Column {
  const column = new Column()
  for (const v of values) column.push(v)
  const back = column.values()
  expect(back.length).to.equal(values.length)
  values.forEach((v, i) => expect(Object.is(back[i], v), `value ${i}: pushed ${v}, got ${back[i]}`).to.equal(true))
  return column
}

describe('columns', () => {
  it('keeps small integers in one byte a value, and widens a chunk as the integers grow', () => {
    const column = roundTrip([3, 0, 7, 254])
    expect(encodings(column)).to.deep.equal(['Uint8Array/0'])
    const widened = roundTrip([3, 0, 7, 254, 255, 65_534, 65_535, 4_000_000_000, 2 ** 40])
    expect(encodings(widened)).to.deep.equal(['Float64Array/0'])
    expect(encodings(roundTrip([1, 2, 70_000]))).to.deep.equal(['Uint32Array/0'])
    expect(encodings(roundTrip([1, 2, 300]))).to.deep.equal(['Uint16Array/0'])
  })

  it('turns integers into scaled integers on the first decimal fraction, and into f64 on the first other double', () => {
    const decimals = roundTrip([12, 40, 0.001779, 0.5, 1234.25])
    expect(encodings(decimals)).to.deep.equal(['Uint32Array/6'])
    expect(decimals.chunks[0]!.data).to.be.instanceOf(Uint32Array)
    // 0.1 + 0.2 is no decimal of 9 places or fewer: f64, every earlier value still exact.
    const doubles = roundTrip([12, 0.001779, 0.1 + 0.2, 7])
    expect(encodings(doubles)).to.deep.equal(['Float64Array/0'])
    // Cents stay two bytes a value.
    expect(encodings(roundTrip([0.25, 1.5, 3.75, 0]))).to.deep.equal(['Uint16Array/2'])
  })

  it('marks a missing value with the type’s largest value, which a real value of that size then widens', () => {
    const column = roundTrip([Number.NaN, 5, Number.NaN, 9])
    expect(encodings(column)).to.deep.equal(['Uint8Array/0'])
    const widened = roundTrip([Number.NaN, 5, 255, Number.NaN])
    expect(encodings(widened)).to.deep.equal(['Uint16Array/0'])
    roundTrip([0.5, Number.NaN, 0.25])
  })

  it('costs nothing per row for a column that is all missing or constant, until a value differs', () => {
    const missing = new Column()
    const constant = new Column()
    for (let i = 0; i < 100_000; i++) {
      missing.push(Number.NaN)
      constant.push(5400)
    }
    expect(missing.byteLength()).to.equal(0)
    expect(constant.byteLength()).to.equal(0)
    expect(missing.values().every(Number.isNaN)).to.equal(true)
    expect(constant.values().every((v) => v === 5400)).to.equal(true)
    constant.push(5401)
    expect(constant.byteLength())
      .to.be.above(0)
      .and.at.most(CHUNK_MAX * 2)
    const values = constant.values()
    expect(values[100_000]).to.equal(5401)
    expect(values[99_999]).to.equal(5400)
    expect(encodings(roundTrip([0.1 + 0.2, 0.1 + 0.2]))).to.deep.equal(['constant/0'])
  })

  it('keeps -0, negative numbers and infinities exactly (in f64)', () => {
    expect(encodings(roundTrip([1, -0, 2]))).to.deep.equal(['Float64Array/0'])
    roundTrip([0, -3, 2])
    roundTrip([Number.POSITIVE_INFINITY, 1, 2])
    roundTrip([-0, -0])
  })

  it('grows by chunks of at most CHUNK_MAX values, a chunk starting in its predecessor’s encoding', () => {
    const random = mulberry32(3)
    const values = Array.from({length: 100_000}, (_, i) => (i === 40_000 ? 0.5 : Math.floor(random() * 200)))
    const column = roundTrip(values)
    expect(column.chunks.every((c) => c.capacity <= CHUNK_MAX)).to.equal(true)
    expect(column.chunks.reduce((n, c) => n + c.length, 0)).to.equal(100_000)
    // Only the chunk holding 0.5 and the ones after it are scaled (tenths, two bytes a value).
    const scaled = column.chunks.map((c) => c.scale > 0)
    expect(scaled.indexOf(true)).to.be.above(0)
    expect(scaled.slice(scaled.indexOf(true)).every(Boolean)).to.equal(true)
    expect(column.byteLength()).to.be.below(100_000 * 2 + CHUNK_MAX * 2)
  })

  it('seals its last chunk to its length, and takes over another column’s chunks without copying them', () => {
    const first = roundTrip([1, 2, 3])
    first.seal()
    expect(first.chunks[0]!.data!.length).to.equal(3)
    const second = roundTrip([4, 5.5, Number.NaN])
    const chunks: Chunk[] = second.portable()
    first.appendChunks(chunks)
    expect(first.chunks[1]!.data).to.equal(chunks[0]!.data)
    expect(Array.from(first.values())).to.deep.equal([1, 2, 3, 4, 5.5, Number.NaN])
    // Pushing after an append starts a new chunk: the taken-over one is never written into.
    first.push(6)
    expect(Array.from(second.values())).to.deep.equal([4, 5.5, Number.NaN])
    expect(Array.from(first.values())).to.deep.equal([1, 2, 3, 4, 5.5, Number.NaN, 6])
    expect(Array.from(Column.fromChunks(first.portable()).values())).to.deep.equal(Array.from(first.values()))
  })

  it('flags read back as 0/1 bytes', () => {
    const flags = new FlagColumn()
    const pattern = Array.from({length: 5000}, (_, i) => i % 7 !== 0)
    for (const flag of pattern) flags.push(flag)
    expect(Array.from(flags.values())).to.deep.equal(pattern.map(Number))
  })

  it('sorts as Float64Array.prototype.sort does, from a handful of values to many thousands', () => {
    const random = mulberry32(11)
    const specials = [
      -0,
      0,
      -1e-310,
      5e-324,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ]
    for (const n of [0, 1, 10, 1023, 1024, 5000, 70_000]) {
      for (const kind of ['integers', 'fractions', 'mixed']) {
        const values = Float64Array.from({length: n}, (_, i) =>
          kind === 'integers'
            ? Math.floor(random() * 30_000)
            : kind === 'fractions'
              ? random() * 1e4
              : i % 50 === 0
                ? specials[i % specials.length]!
                : (random() - 0.5) * 10 ** Math.floor(random() * 12),
        )
        const expected = values.slice().sort()
        const sorted = sortNumbers(values)
        expect(sorted).to.equal(values)
        for (let i = 0; i < n; i++)
          expect(Object.is(sorted[i], expected[i]), `${kind} n=${n} at ${i}: ${sorted[i]} vs ${expected[i]}`).to.equal(
            true,
          )
      }
    }
    const constant = sortNumbers(new Float64Array(3000).fill(42))
    expect(constant.every((v) => v === 42)).to.equal(true)
  })

  it('presentSorted leaves out NaN, and copies unless told the array is its own', () => {
    const values = Float64Array.from({length: 2000}, (_, i) => (i % 3 === 0 ? Number.NaN : 2000 - i))
    const sorted = presentSorted(values)
    expect(sorted.length).to.equal(2000 - 667)
    expect(Number.isNaN(values[0]!)).to.equal(true)
    expect(Array.from(sorted)).to.deep.equal(Array.from(values.filter((v) => !Number.isNaN(v))).sort((a, b) => a - b))
  })
})
