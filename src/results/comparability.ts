/**
 * Whether two runs can be compared run against run (report --compare, flakes) or two shards merged:
 * their comparability keys (run.json's `key`, a shard header's), field by field.
 */
import type {ComparabilityKey} from '../schemas/shard-header.js'

/** Each field of the key that differs, named with both values (`field <a> vs <b>`); empty when they agree. */
export function keyDifferences(a: ComparabilityKey, b: ComparabilityKey): string[] {
  const differences: string[] = []
  for (const field of Object.keys({...a, ...b}) as Array<keyof ComparabilityKey>)
    if (JSON.stringify(a[field]) !== JSON.stringify(b[field]))
      differences.push(`${field} ${JSON.stringify(a[field])} vs ${JSON.stringify(b[field])}`)
  return differences
}
