import '../mcp-server/define.js';
import { defineElement } from '../shared/define-element.js';
import { AhpMcpServerList } from './mcp-server-list.js';

defineElement('ahp-mcp-server-list', AhpMcpServerList);
