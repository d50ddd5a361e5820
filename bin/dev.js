#!/usr/bin/env node
// Runs the CLI from the TypeScript source (development, tests): tsx compiles on the fly.
// oclif's own source mapping cannot map a tree built with rootDir "." (src/ and plugins/), so
// this entry registers tsx itself and points oclif at the source command index directly.
import {readFileSync} from 'node:fs'
import {register as registerHooks} from 'node:module'
import {fileURLToPath} from 'node:url'
import {execute, settings} from '@oclif/core'
import {register} from 'tsx/esm/api'
import {sourceHooks} from './source-hooks.js'

register()
// The built-in plugins import `ghx-bench` and `ghx-bench/plugin-kit` by name: from source those must
// resolve to src/ (the package's `ghx-bench-source` export condition), not to a second copy in dist/.
// `node --conditions=ghx-bench-source` does that; here a resolve hook adds the condition instead.
const withSourceCondition = `export function resolve(specifier, context, next) {
  return next(specifier, {...context, conditions: [...context.conditions, 'ghx-bench-source']})
}`
registerHooks(`data:text/javascript,${encodeURIComponent(withSourceCondition)}`)
settings.enableAutoTranspile = false
const root = fileURLToPath(new URL('..', import.meta.url))
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
pjson.oclif.commands.target = './src/command-index.ts'
pjson.oclif.hooks = sourceHooks(pjson.oclif.hooks)
await execute({dir: import.meta.url, loadOptions: {root, pjson}})
