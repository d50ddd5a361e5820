/**
 * The file name of an attempt's trace, as the runner writes it under <record>/traces/ (runner/trace-file.ts)
 * and summary.html's run index rebuilds it from a row's columns (report/aggregate/run-index.ts; the page's
 * own script, render/html/client.ts, spells the same name). Rows of no provider (imported ones) name none.
 */
export function attemptTraceName(
  scenario: string,
  mode: string,
  provider: string | null,
  iteration: number,
  attempt: number,
): string {
  return `${scenario}__${mode}__${provider === null ? '' : `${provider}__`}i${iteration}__a${attempt}.json`
}
