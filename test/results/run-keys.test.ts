// The keys a duplicated row is recognised by: a bit per iteration, any iteration kept.
import {expect} from 'chai'
import {FileDeduplication, RunKeys, type RunGroup} from '../../src/results/run-keys.js'

const group = (run_id: string, scenario_id: string, mode: string, provider: string | null = 'p'): RunGroup => ({
  run_id,
  scenario_id,
  mode,
  provider,
})

describe('run keys', () => {
  it('tells keys apart by run, scenario, mode, provider and iteration, large and odd iterations included', () => {
    const keys = new RunKeys()
    expect(keys.empty).to.equal(true)
    for (const iteration of [1, 7, 8, 1000, 2 ** 24, 2.5, -1]) keys.add(group('r', 's', 'm'), iteration)
    for (const iteration of [1, 7, 8, 1000, 2 ** 24, 2.5, -1])
      expect(keys.has(group('r', 's', 'm'), iteration), String(iteration)).to.equal(true)
    for (const iteration of [0, 2, 9, 999, 1001, 2 ** 24 + 1, 3.5])
      expect(keys.has(group('r', 's', 'm'), iteration), String(iteration)).to.equal(false)
    expect(keys.has(group('r2', 's', 'm'), 1)).to.equal(false)
    expect(keys.has(group('r', 's2', 'm'), 1)).to.equal(false)
    expect(keys.has(group('r', 's', 'm2'), 1)).to.equal(false)
    // The same run under another provider (a suite with several) is another run; a row without one is a third.
    expect(keys.has(group('r', 's', 'm', 'q'), 1)).to.equal(false)
    expect(keys.has(group('r', 's', 'm', null), 1)).to.equal(false)
    expect(new FileDeduplication(keys).fresh(group('r', 's', 'm', 'q'), 1, false)).to.equal(true)
  })

  it('merges sets, also from their portable form (a worker’s)', () => {
    const a = new RunKeys()
    const b = new RunKeys()
    a.add(group('r', 's', 'm'), 3)
    b.add(group('r', 's', 'm'), 900)
    b.add(group('q', 's', 'm'), 1)
    b.add(group('q', 's', 'm'), 0.5)
    const merged = RunKeys.from(a.portable())
    merged.addAll(b.portable())
    for (const [run, iteration] of [
      ['r', 3],
      ['r', 900],
      ['q', 1],
      ['q', 0.5],
    ] as const)
      expect(merged.has(group(run, 's', 'm'), iteration)).to.equal(true)
    expect(merged.has(group('r', 's', 'm'), 4)).to.equal(false)
  })

  it('counts a file’s rows that earlier files gave, and records the first run the file itself gives twice', () => {
    const earlier = new RunKeys()
    earlier.add(group('r', 's', 'm'), 1)
    const once = new FileDeduplication(earlier)
    expect([1, 2, 3].map((i) => once.fresh(group('r', 's', 'm'), i, false))).to.deep.equal([false, true, true])
    expect(once.duplicates).to.equal(1)
    expect(once.repeated).to.equal(undefined)
    expect(once.keys.has(group('r', 's', 'm'), 2)).to.equal(true)
    // A repeat within the file (issue 27: `cat r.jsonl r.jsonl`), an earlier file's run included: never fresh, and recorded.
    expect([2, 1, 3].map((i) => once.fresh(group('r', 's', 'm'), i, false))).to.deep.equal([false, false, false])
    expect(once.repeated).to.deep.equal({run_id: 'r', scenario_id: 's', mode: 'm', provider: 'p', iteration: 2})
    expect(once.duplicates).to.equal(1)
    const alone = new FileDeduplication(undefined)
    expect([0.5, 0.5].map((i) => alone.fresh(group('q', 's', 'm'), i, false))).to.deep.equal([true, false])
    expect(alone.repeated).to.deep.equal({run_id: 'q', scenario_id: 's', mode: 'm', provider: 'p', iteration: 0.5})
  })

  it('records a run an earlier file gave with the other outcome (unless the file is an original its re-graded rows replace)', () => {
    const earlier = new RunKeys()
    earlier.add(group('r', 's', 'm'), 1, true)
    earlier.add(group('r', 's', 'm'), 2, false)
    earlier.add(group('r', 's', 'm'), 2 ** 24, true)
    const agreeing = new FileDeduplication(earlier)
    expect([
      agreeing.fresh(group('r', 's', 'm'), 1, true),
      agreeing.fresh(group('r', 's', 'm'), 2, false),
    ]).to.deep.equal([false, false])
    expect(agreeing.conflicting).to.equal(undefined)
    const disagreeing = new FileDeduplication(RunKeys.from(earlier.portable()))
    expect(disagreeing.fresh(group('r', 's', 'm'), 2, true)).to.equal(false)
    expect(disagreeing.fresh(group('r', 's', 'm'), 2 ** 24, false)).to.equal(false)
    expect(disagreeing.conflicting).to.deep.equal({
      run_id: 'r',
      scenario_id: 's',
      mode: 'm',
      provider: 'p',
      iteration: 2,
      passed: true,
    })
    const replaced = new FileDeduplication(earlier, true)
    expect(replaced.fresh(group('r', 's', 'm'), 2, true)).to.equal(false)
    expect(replaced.conflicting).to.equal(undefined)
  })

  it('names a key two sets share (ranges of one file read by two workers)', () => {
    const a = new RunKeys()
    const b = new RunKeys()
    for (const i of [1, 2, 3, 2 ** 24]) a.add(group('r', 's', 'm'), i)
    for (const i of [4, 5, 900]) b.add(group('r', 's', 'm'), i)
    b.add(group('r', 's2', 'm'), 3)
    expect(a.shared(b.portable())).to.equal(undefined)
    b.add(group('r', 's', 'm'), 3)
    expect(a.shared(b.portable())).to.deep.equal({
      run_id: 'r',
      scenario_id: 's',
      mode: 'm',
      provider: 'p',
      iteration: 3,
    })
    const c = new RunKeys()
    c.add(group('r', 's', 'm'), 2 ** 24)
    expect(a.shared(c)).to.deep.equal({run_id: 'r', scenario_id: 's', mode: 'm', provider: 'p', iteration: 2 ** 24})
  })
})
