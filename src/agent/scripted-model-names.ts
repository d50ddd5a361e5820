/** The scripted models' names, apart from their server: naming them must not load the tokenizer. */
export type ScriptedModelName = 'oracle' | 'noop' | AdversaryName

/**
 * Models that try to pass without doing the work, played through the real mode and provider:
 * `liar` reads, then answers a well-formed result made up from the task's input, `empty` reads, then
 * answers a well-formed empty result, `wrong_target` plays the reference plan on another resource of
 * the fixture, `read_only` plays only the plan's reads. Every scenario must fail under each.
 */
export type AdversaryName = 'liar' | 'empty' | 'wrong_target' | 'read_only'
export const ADVERSARIES: readonly AdversaryName[] = ['liar', 'empty', 'wrong_target', 'read_only']
export const SCRIPTED_MODELS: readonly ScriptedModelName[] = ['oracle', 'noop', ...ADVERSARIES]
