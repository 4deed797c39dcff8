// React 19 renders custom elements natively: props become element properties, and `on<event-name>` props
// on a custom element become listeners for that event (here `onahp-chat-send`).
import { StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'ahp-elements/define';
import { turnStarted } from 'ahp-elements/intents';
import type { AhpChatSendEvent, AhpConnectionChangeEvent, AhpSession } from 'ahp-elements/elements';
import { playgroundInfo, type PlaygroundInfo } from '../playground.js';

function App({ info }: { info: PlaygroundInfo }) {
  const chat = info.chatUri;
  const session = useRef<AhpSession>(null);
  const [connection, setConnection] = useState('connecting');
  const [lastSent, setLastSent] = useState('');

  // A ref is the other way to listen: works for any event, in any React version.
  useEffect(() => {
    const el = session.current;
    if (!el) return;
    setConnection(el.connectionState?.kind ?? 'connecting');
    const onChange = (e: AhpConnectionChangeEvent) => setConnection(e.detail.state.kind);
    el.addEventListener('ahp-connection-change', onChange);
    return () => el.removeEventListener('ahp-connection-change', onChange);
  }, []);

  const sendSum = () => {
    session.current?.currentStore?.dispatch(turnStarted({ text: '/sum 1 2' }), chat);
  };

  return (
    <ahp-session ref={session} url={info.wsUrl} session={info.sessionUri}>
      <p id="connection">Connection: {connection}</p>
      <ahp-mcp-server-list />
      <div className="actions">
        <button id="send-sum" type="button" onClick={sendSum}>
          Send <code>/sum 1 2</code>
        </button>
        <output id="last-sent">{lastSent && `You sent ${lastSent}`}</output>
      </div>
      <ahp-chat chat={chat} onahp-chat-send={(e: AhpChatSendEvent) => setLastSent(e.detail.text)} />
    </ahp-session>
  );
}

const info = await playgroundInfo();
createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <App info={info} />
  </StrictMode>,
);
