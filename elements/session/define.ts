import { defineElement } from '../shared/define-element.js';
import { AhpSession } from './session.js';

defineElement('ahp-session', AhpSession);
