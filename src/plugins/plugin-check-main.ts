/**
 * The process that checks a third-party plugin's import before ghx-bench imports it (./plugin-check.ts):
 * it reads the plugin's module, its specifier, options and time limit from stdin as one JSON line,
 * loads it guarded (./import-plugin.ts), and answers on stdout. While its event loop runs it says so
 * every BEAT_MS: a plugin whose import never lets go of it (an endless loop) is told by its silence.
 */
import {loadPluginModule} from './import-plugin.js'
import {BEAT_MS, CHECK_LINE, type CheckRequest} from './plugin-check.js'

const say = (word: string) => process.stdout.write(`${CHECK_LINE}${word}\n`)

say('beat')
setInterval(() => say('beat'), BEAT_MS)
let input = ''
process.stdin.setEncoding('utf8')
const onData = (chunk: string) => {
  input += chunk
  if (!input.includes('\n')) return
  process.stdin.off('data', onData).pause()
  void check(JSON.parse(input.slice(0, input.indexOf('\n'))) as CheckRequest)
}
process.stdin.on('data', onData)

async function check({module, specifier, options, limitMs}: CheckRequest): Promise<void> {
  const outcome = await loadPluginModule(module, specifier, options, limitMs, true)
  say(`done ${JSON.stringify(outcome.ok ? [] : outcome.problems)}`)
  // What the plugin left (timers, sockets) must not keep this process: ghx-bench ends it anyway.
  process.exit(0)
}
