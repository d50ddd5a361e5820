/** The prompt a run sends: a workflow's own text, or for an atomic scenario the task, its input and the envelope asked for. */
import {fillPlaceholders} from '../catalogue/placeholders.js'
import type {AtomicScenario, Scenario} from '../schemas/scenario.js'

function envelopeShape(scenario: AtomicScenario): string {
  const {data_type: dataType, required_data_fields: fields = []} = scenario.assertions
  const data =
    dataType === 'array'
      ? 'a JSON array of the items'
      : fields.length > 0
        ? `an object with at least ${fields.map((f) => `"${f}"`).join(', ')}`
        : 'the result'
  return `{"ok": true, "data": ${data}} on success, or {"ok": false, "error": {"code": "...", "message": "..."}} on failure`
}

export function renderPrompt(scenario: Scenario, variables: Record<string, unknown>): string {
  if (scenario.type === 'workflow') return fillPlaceholders(scenario.prompt, variables)
  if (scenario.prompt) return fillPlaceholders(scenario.prompt, variables)
  const input = fillPlaceholders(scenario.input, variables)
  return [
    `Perform the GitHub operation \`${scenario.task}\` in the repository ${String(variables.repo_full_name)} with this input:`,
    '```json',
    JSON.stringify(input, null, 2),
    '```',
    `When you are done, reply with exactly one JSON object, the result envelope: ${envelopeShape(scenario)}.`,
  ].join('\n')
}
