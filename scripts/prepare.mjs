// npm's `prepare`: builds dist/ (tsc, about a minute on 2 cores) after `npm ci` and `npm install`, and
// before `npm pack`. `npx ghx-bench` in this folder runs `prepare` too (npm links the folder into its
// npx cache): there the build is the one `npm ci` made already, redone behind npx's spinner with no
// word, so it is skipped when dist/ is there.
import {spawnSync} from 'node:child_process'
import {existsSync, writeFileSync} from 'node:fs'

const built = existsSync(new URL('../dist/src/command-index.js', import.meta.url))
if (process.env.npm_command === 'exec' && built) process.exit(0)
/** npx shows a script's output only when it fails: the terminal itself hears it, where there is one. */
function say(text) {
  try {
    writeFileSync('/dev/tty', text)
  } catch {
    process.stderr.write(text)
  }
}
if (process.env.npm_command === 'exec')
  say('ghx-bench: building dist/ once (tsc, about a minute); `npm ci` builds it ahead\n')
const npm = process.env.npm_execpath
const result = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], {stdio: 'inherit'})
  : spawnSync('npm', ['run', 'build'], {stdio: 'inherit', shell: process.platform === 'win32'})
process.exit(result.status ?? 1)
