// A page built by a bundler from the npm package: one import defines every element, the headless core comes from
// the package root. (Here esbuild resolves `ahp-elements` to this repository; in an app it is node_modules.)
import 'ahp-elements/define';
import type { AnyAction, SessionStoreLike } from 'ahp-elements';
import type { AhpSession } from 'ahp-elements/elements';

interface PlaygroundInfo {
  wsUrl: string;
  sessionUri: string;
  chatUri?: string;
}

/** Starts a turn in `chat` as if the user had typed `text`. */
function sendMessage(store: SessionStoreLike, chat: string, text: string): void {
  const action: AnyAction = {
    type: 'chat/turnStarted',
    turnId: crypto.randomUUID(),
    startedAt: new Date().toISOString(),
    message: { text, origin: { kind: 'user' } },
  };
  store.dispatch(action, chat);
}

const info = (await (await fetch('/playground.json')).json()) as PlaygroundInfo;
const chatUri = info.chatUri ?? 'ahp-chat:/playground-main';

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
  if (session.currentStore) sendMessage(session.currentStore, chatUri, '/sum 1 2');
});
