import { defineElement } from '../shared/define-element.js';
import { AhpMcpServer } from './mcp-server.js';

defineElement('ahp-mcp-server', AhpMcpServer);
