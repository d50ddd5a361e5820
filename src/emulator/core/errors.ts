/** An HTTP error the sandbox answers in GitHub's error shape ({message, documentation_url, errors?}). */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** GitHub's `errors`: field errors, or plain sentences (a review's "Line could not be resolved"). */
    readonly errors?: Array<Record<string, unknown> | string>,
  ) {
    super(message)
  }
}

export const notFound = (what = 'Not Found') => new SandboxError(404, what)
/** The value of a lookup, or GitHub's 404 when there is none. */
export function found<T>(value: T | undefined): T {
  if (value === undefined) throw notFound()
  return value
}
export const unprocessable = (message: string, field?: string, resource?: string) =>
  new SandboxError(422, 'Validation Failed', [{resource, field, code: 'invalid', message}])
/** GitHub's 422 whose message is the refusal itself, with no "Validation Failed" wrapper (a ref that exists, a dispatch's unknown ref). */
export const refused = (message: string) => new SandboxError(422, message)
/** GitHub's 422 for a field whose value it does not take, with no sentence of its own (a release's tag_name). */
export const invalidField = (field: string, resource: string) =>
  new SandboxError(422, 'Validation Failed', [{resource, code: 'invalid', field}])
/** GitHub's 422 for a duplicate: clients (gh label create --force) look for this exact code. */
export const alreadyExists = (field: string, resource: string) =>
  new SandboxError(422, 'Validation Failed', [{resource, code: 'already_exists', field}])
/** Something GitHub has that the sandbox does not model: never a silent wrong answer. */
export const notModelled = (what: string) => new SandboxError(501, `ghx-bench sandbox does not model ${what}`)
