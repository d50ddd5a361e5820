// Small scenarios written for one test: an atomic repo.view whose agent_direct plan is one shell command.

export function shellCommandScenario(id: string, name: string, timeoutMs: number, command: string): string {
  return [
    'type: atomic', `id: ${id}`, `name: ${name}`, `timeout_ms: ${timeoutMs}`, 'task: repo.view',
    'input: {owner: "{{owner}}", name: "{{repo}}"}', 'assertions: {expected_outcome: success}',
    'reference:', '  agent_direct:', `    - {tool: shell, args: {command: "${command}"}}`, '',
  ].join('\n')
}
