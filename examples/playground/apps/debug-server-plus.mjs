#!/usr/bin/env node
// server-debug (the real third-party App server) plus one model-only tool, so tests can check that a View
// cannot call a tool whose `_meta.ui.visibility` lacks "app". Run with --stdio like server-debug itself.
import { createServer } from '@modelcontextprotocol/server-debug';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = createServer();
server.registerTool(
  'debug-model-only',
  {
    description: 'Only the model may call this tool (visibility ["model"]); an App calling it must be refused.',
    _meta: { ui: { visibility: ['model'] } },
  },
  async () => ({ content: [{ type: 'text', text: 'model-only tool ran' }] }),
);
await server.connect(new StdioServerTransport());
