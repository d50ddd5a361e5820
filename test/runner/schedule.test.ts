// The scheduler's locks: a name is held by one run at a time; a group's side by many at once, never
// beside the other side. And which runs take which: a read that compares its answer with a list of the
// repository against the runs that change it (test/commands/validate-calibrate.e2e.test.ts calibrates both
// kinds of scenario in one run).
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {parse} from 'yaml'
import {schedule, type RunLock} from '../../src/runner/schedule.js'
import {runLocks} from '../../src/runner/suite-fixtures.js'
import type {PlannedRun} from '../../src/runner/plan.js'
import type {Scenario} from '../../src/schemas/scenario.js'
import {PROJECT_ROOT} from '../support/cli.js'

const run = (id: string): PlannedRun => ({key: id, scenario_id: id, mode: 'm', provider: 'p', iteration: 1})

/** Plays the plan with these locks; each run lasts a few ticks. Returns the largest set of runs seen at once, in order. */
async function overlaps(locks: Record<string, RunLock[]>, concurrency = 8): Promise<string[][]> {
  const active = new Set<string>()
  const seen: string[][] = []
  await schedule(
    Object.keys(locks).map(run),
    concurrency,
    (r) => locks[r.scenario_id]!,
    async (r) => {
      active.add(r.scenario_id)
      seen.push([...active].sort())
      for (let tick = 0; tick < 3; tick++) await new Promise((resolve) => setImmediate(resolve))
      active.delete(r.scenario_id)
    },
    new AbortController().signal,
  )
  return seen
}

describe('the scheduler', () => {
  it('never runs two holders of one name at once', async () => {
    const seen = await overlaps({a: ['pr'], b: ['pr'], c: ['issue']})
    expect(seen.every((set) => !(set.includes('a') && set.includes('b')))).to.equal(true)
    expect(seen.some((set) => set.includes('a') && set.includes('c'))).to.equal(true)
  })

  it('runs the holders of one side of a group together, and never beside the other side', async () => {
    const changes: RunLock = {group: 'repository', side: 'changes'}
    const lists: RunLock = {group: 'repository', side: 'lists'}
    const seen = await overlaps({w1: [changes], w2: [changes], r1: [lists], r2: [lists], free: []})
    const mixed = seen.filter((set) => set.some((id) => id.startsWith('w')) && set.some((id) => id.startsWith('r')))
    expect(mixed).to.deep.equal([])
    expect(seen.some((set) => set.includes('w1') && set.includes('w2'))).to.equal(true)
    expect(seen.some((set) => set.includes('r1') && set.includes('r2'))).to.equal(true)
    expect(seen.some((set) => set.includes('free') && set.includes('w1'))).to.equal(true)
  })
})

describe('the locks a run takes', () => {
  const scenario = async (id: string) =>
    parse(await readFile(path.join(PROJECT_ROOT, 'suites', 'scenarios', `${id}.yml`), 'utf8')) as Scenario
  it('a read compared with a list of the repository takes the lists side; a change takes the changes side; a single read neither', async () => {
    expect(runLocks(await scenario('pr-list-001'))).to.deep.equal(['pr', {group: 'repository', side: 'lists'}])
    expect(runLocks(await scenario('issue-list-001'))).to.deep.include({group: 'repository', side: 'lists'})
    expect(runLocks(await scenario('issue-to-pr-lifecycle-wf-001'))).to.deep.include({
      group: 'repository',
      side: 'changes',
    })
    expect(runLocks(await scenario('issue-create-001'))).to.deep.equal([{group: 'repository', side: 'changes'}])
    expect(runLocks(await scenario('pr-view-001')).filter((lock) => typeof lock !== 'string')).to.deep.equal([])
  })
})
