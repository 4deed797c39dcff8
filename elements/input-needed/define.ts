import { defineElement } from '../shared/define-element.js';
import '../tool-call/define.js';
import { AhpInputNeeded } from './input-needed.js';

defineElement('ahp-input-needed', AhpInputNeeded);
