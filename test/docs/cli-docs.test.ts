// docs/cli.md is generated from the commands (scripts/cli-docs.ts): rendered again here, in memory, it
// must be the file as committed, so a changed flag, description or example cannot leave the reference behind.
import {readFileSync} from 'node:fs'
import {expect} from 'chai'
import {CLI_DOCS_FILE, CLI_DOCS_SCRIPT, loadCliConfig, renderCliDocs} from '../../scripts/cli-docs.js'

describe('docs/cli.md (generated from the commands)', () => {
  it('is what the commands render today', async () => {
    const config = await loadCliConfig()
    const rendered = renderCliDocs(config)
    const committed = readFileSync(CLI_DOCS_FILE, 'utf8')
    if (rendered !== committed) {
      const a = committed.split('\n')
      const b = rendered.split('\n')
      const line = a.findIndex((text, i) => text !== b[i])
      const at = line === -1 ? Math.min(a.length, b.length) : line
      expect.fail(
        `docs/cli.md is out of date with src/commands/ (first difference at line ${at + 1}: ${JSON.stringify(a[at] ?? '')} vs ${JSON.stringify(b[at] ?? '')}); run \`${CLI_DOCS_SCRIPT}\` and commit the result`,
      )
    }
    for (const command of config.commands.filter((c) => c.pluginName === config.pjson.name)) {
      expect(committed, command.id).to.include(`## \`ghx-bench ${command.id.replaceAll(':', ' ')}\``)
    }
  })

  it('is deterministic: no absolute path, the same text twice', async () => {
    const config = await loadCliConfig()
    const text = renderCliDocs(config)
    expect(text).to.equal(renderCliDocs(config))
    expect(text).not.to.include(config.root)
    expect(text).not.to.match(/\/(home|tmp|work|Users)\//)
  })
})
