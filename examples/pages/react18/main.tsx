// React 18 sets only attributes on custom elements and cannot listen to their events, so this page uses the
// @lit/react wrappers from `ahp-elements/react`: props become element properties, `onAhp…` props become listeners.
// Importing the wrappers defines every element.
import { StrictMode, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AhpChat, AhpMcpServerList, AhpSession } from 'ahp-elements/react';
import { turnStarted } from 'ahp-elements/intents';
import type { AhpSession as AhpSessionElement } from 'ahp-elements/elements';
import { playgroundInfo, type PlaygroundInfo } from '../playground.js';

function App({ info }: { info: PlaygroundInfo }) {
  const chat = info.chatUri;
  const session = useRef<AhpSessionElement>(null);
  const [connection, setConnection] = useState('connecting');
  const [lastSent, setLastSent] = useState('');

  const sendSum = () => {
    session.current?.currentStore?.dispatch(turnStarted({ text: '/sum 1 2' }), chat);
  };

  return (
    <AhpSession ref={session} url={info.wsUrl} session={info.sessionUri} onAhpConnectionChange={(e) => setConnection(e.detail.state.kind)}>
      <p id="connection">Connection: {connection}</p>
      <AhpMcpServerList />
      <div className="actions">
        <button id="send-sum" type="button" onClick={sendSum}>
          Send <code>/sum 1 2</code>
        </button>
        <output id="last-sent">{lastSent && `You sent ${lastSent}`}</output>
      </div>
      <AhpChat chat={chat} onAhpChatSend={(e) => setLastSent(e.detail.text)} />
    </AhpSession>
  );
}

const info = await playgroundInfo();
createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <App info={info} />
  </StrictMode>,
);
