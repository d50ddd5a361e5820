/** The scripted models' names, apart from their server: naming them must not load the tokenizer. */
export type ScriptedModelName = 'oracle' | 'noop'
export const SCRIPTED_MODELS: readonly ScriptedModelName[] = ['oracle', 'noop']
