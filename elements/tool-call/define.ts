import { defineElement } from '../shared/define-element.js';
import { AhpToolCall } from './tool-call.js';

defineElement('ahp-tool-call', AhpToolCall);
