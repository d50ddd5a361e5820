/**
 * What every CLI invocation does first: secrets leave the process's environment (secret-env.ts), and
 * temporary folders go under one root that is removed at exit, Ctrl-C included (temp-root.ts).
 */
import {hideSecrets} from './secret-env.js'
import {useProcessTempRoot} from './temp-root.js'

let guarded = false

export function guardProcess(): void {
  if (guarded) return
  guarded = true
  hideSecrets()
  useProcessTempRoot()
}
