// Small scenarios written for one test: an atomic repo.view whose agent_direct plan is one shell command.

export function shellCommandScenario(id: string, name: string, timeoutMs: number, command: string): string {
  return [
    'type: atomic',
    `id: ${id}`,
    `name: ${name}`,
    `timeout_ms: ${timeoutMs}`,
    'task: repo.view',
    'input: {owner: "{{owner}}", name: "{{repo}}"}',
    // The answer is the command's output: it passes only when the command prints the repository's name.
    'assertions:',
    '  expected_outcome: success',
    '  checkpoints:',
    '    - {name: answer_true, task: repo.view, input: {owner: "{{owner}}", name: "{{repo}}"}, condition: {type: mentioned_in, path: name, text: "{{answer}}"}}',
    'reference:',
    '  agent_direct:',
    `    - {tool: shell, args: {command: "${command}"}}`,
    '',
  ].join('\n')
}
