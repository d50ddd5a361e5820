// docs/gate.md's profile sizes are generated from the planner (scripts/gate-sizes.ts): rendered again here,
// they must be the file as committed, so a changed limit or a changed formula cannot leave the table behind.
import {readFileSync} from 'node:fs'
import {expect} from 'chai'
import {GATE_DOC_FILE, gateDocWithSizes, SIZES_BEGIN, SIZES_END} from '../../scripts/gate-sizes.js'

describe('docs/gate.md: the profiles’ sizes (generated from the planner)', () => {
  it('is what the planner gives today', async () => {
    const committed = readFileSync(GATE_DOC_FILE, 'utf8')
    const block = (text: string) => text.slice(text.indexOf(SIZES_BEGIN), text.indexOf(SIZES_END))
    expect(block(committed), 'run `npm run docs` and commit docs/gate.md').to.equal(block(await gateDocWithSizes()))
    expect(block(committed)).to.include('### verify_pr').and.include('### verify_release')
  })
})
