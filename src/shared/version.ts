import {readFileSync} from 'node:fs'
import {packagePath} from './package-paths.js'

/** This harness's version, from package.json, recorded in every row. */
export const HARNESS_VERSION: string = (
  JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as {version: string}
).version
