// A page built by a bundler from the npm package: one import defines every element, the headless core comes from
// the package root. (Here esbuild resolves `ahp-elements` to this repository; in an app it is node_modules.)
import 'ahp-elements/define';
import { turnStarted } from 'ahp-elements/intents';
import type { AhpSession } from 'ahp-elements/elements';
import { playgroundInfo } from '../playground.js';

const info = await playgroundInfo();
const chatUri = info.chatUri;

const session = document.createElement('ahp-session') as AhpSession;
session.setAttribute('url', info.wsUrl);
session.setAttribute('session', info.sessionUri);

const actions = document.createElement('div');
actions.className = 'actions';
const button = document.createElement('button');
button.id = 'send-sum';
button.type = 'button';
button.textContent = 'Send /sum 1 2';
const lastSent = document.createElement('output');
lastSent.id = 'last-sent';
actions.append(button, lastSent);

const chat = document.createElement('ahp-chat');
chat.chat = chatUri;

session.append(document.createElement('ahp-mcp-server-list'), actions, chat);
document.getElementById('app')!.append(session);

// Typed through GlobalEventHandlersEventMap: e.detail is ChatSendDetail.
chat.addEventListener('ahp-chat-send', (e) => {
  lastSent.value = `You sent ${e.detail.text}`;
});
button.addEventListener('click', () => {
  // turnStarted builds the action of a user message (fresh turn id, now); the store sends it.
  session.currentStore?.dispatch(turnStarted({ text: '/sum 1 2' }), chatUri);
});
