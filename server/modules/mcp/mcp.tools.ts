import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerReadTools } from './mcp-read-tools.ts';
import { registerWriteTools } from './mcp-write-tools.ts';
import type { McpCaller, McpToolDeps } from './tool-context.ts';

/** Every tool on a fresh server for one request (stateless: a server lives for one request). */
export function registerTools(server: McpServer, deps: McpToolDeps, caller: McpCaller): void {
  registerReadTools(server, deps, caller);
  registerWriteTools(server, deps, caller);
}
