import { defineElement } from '../shared/define-element.js';
import '../tool-call/define.js';
import { AhpChat } from './chat.js';

defineElement('ahp-chat', AhpChat);
