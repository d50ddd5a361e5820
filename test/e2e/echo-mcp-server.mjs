// A stdio MCP server with one tool, `echo_text`, for the end-to-end tests that drive a real agent CLI's
// MCP client against the scripted oracle: the tool answers JSON, so the oracle's answer template can
// read a field of it. It answers an error result (isError) when asked to echo "fail".
import {Server} from '@modelcontextprotocol/sdk/server/index.js'
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js'
import {CallToolRequestSchema, ListToolsRequestSchema} from '@modelcontextprotocol/sdk/types.js'

const server = new Server({name: 'echo', version: '1.0.0'}, {capabilities: {tools: {}}})
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    {
      name: 'echo_text',
      description: 'Echoes a text back as JSON',
      inputSchema: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},
    },
  ],
}))
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const text = String(request.params.arguments?.text ?? '')
  if (text === 'fail') return {content: [{type: 'text', text: 'echo refused: fail'}], isError: true}
  return {content: [{type: 'text', text: JSON.stringify({echoed: text})}]}
})
await server.connect(new StdioServerTransport())
