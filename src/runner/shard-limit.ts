/**
 * The most shards of a run (`run --shard i/N`, `init --shards N`): four times a CI matrix's most jobs
 * (GitHub's is 256). A shard's plan holds a slot per shard, so N is bounded before anything is planned.
 * A module of its own: the flags read it without loading the runner.
 */
export const MAX_SHARDS = 1024
