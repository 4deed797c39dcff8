import { defineElement } from '../shared/define-element.js';
import { AhpMcpApp } from './mcp-app.js';

defineElement('ahp-mcp-app', AhpMcpApp);
