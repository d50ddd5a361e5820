import {Flags} from '@oclif/core'
import {suiteSchema} from '../schemas/suite.js'

export {MAX_SHARDS} from '../runner/shard-limit.js'

const {repetitions, concurrency, seed} = suiteSchema.properties

/**
 * The flags that override a suite's own numbers, bounded as the suite's schema bounds them: a flag
 * may not plan what the suite file could not (`-r 1000001` is refused, not nine million runs).
 */
export const suiteNumberFlags = {
  repetitions: Flags.integer({
    char: 'r',
    min: repetitions.minimum,
    max: repetitions.maximum,
    description: 'iterations per scenario and mode (default: the suite’s)',
  }),
  concurrency: Flags.integer({
    min: concurrency.minimum,
    max: concurrency.maximum,
    description: 'runs at once (runs that share a fixture never overlap)',
  }),
  seed: Flags.integer({
    min: seed.minimum,
    max: seed.maximum,
    description: 'seed of the run order (default: the suite’s)',
  }),
}
