/** summary.json, gate.json, compare.json: the document as it is, indented, one line feed at the end. */
export function renderJson(document: unknown): string {
  return JSON.stringify(document, null, 2) + '\n'
}
