import {expect} from 'chai'
import {BackgroundWork} from '../../src/runner/background-work.js'

const later = (ms: number, fail = false) =>
  new Promise<void>((resolve, reject) => setTimeout(() => (fail ? reject(new Error('lost')) : resolve()), ms))

describe('background work', () => {
  it('is settled only once every piece added has ended, failures included, and pieces added meanwhile too', async () => {
    const work = new BackgroundWork()
    const ended: string[] = []
    work.add(later(30).then(() => ended.push('slow')))
    work.add(later(10, true))
    work.add(
      later(20).then(() => {
        ended.push('fast')
        // Added while the suite already waits: waited for as well.
        work.add(later(30).then(() => ended.push('added meanwhile')))
      }),
    )
    await work.settled()
    expect(ended).to.deep.equal(['fast', 'slow', 'added meanwhile'])
  })

  it('is settled at once when nothing is pending', async () => {
    await new BackgroundWork().settled()
  })
})
