/** A JSON object (not null, not an array): what parsed JSON and a plugin's options are checked with before their keys are read. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
