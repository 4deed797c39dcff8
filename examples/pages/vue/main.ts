// Vue 3: tell the template compiler that ahp-* tags are custom elements, bind properties with `.prop`
// (or `:attr`, which Vue sets as a property when the element has one) and listen with `@ahp-…`.
import { createApp, ref } from 'vue';
import 'ahp-elements/define';
import { turnStarted } from 'ahp-elements/intents';
import type { AhpChatSendEvent, AhpConnectionChangeEvent, AhpSession } from 'ahp-elements/elements';
import { playgroundInfo } from '../playground.js';

const info = await playgroundInfo();

const app = createApp({
  template: `
    <ahp-session ref="session" :url="info.wsUrl" :session="info.sessionUri" @ahp-connection-change="onConnectionChange">
      <p id="connection">Connection: {{ connection }}</p>
      <ahp-mcp-server-list></ahp-mcp-server-list>
      <div class="actions">
        <button id="send-sum" type="button" @click="sendSum">Send <code>/sum 1 2</code></button>
        <output id="last-sent">{{ lastSent && 'You sent ' + lastSent }}</output>
      </div>
      <ahp-chat .chat="chat" @ahp-chat-send="onSend"></ahp-chat>
    </ahp-session>
  `,
  setup() {
    const session = ref<AhpSession | null>(null);
    const connection = ref('connecting');
    const lastSent = ref('');
    const chat = info.chatUri;
    return {
      info,
      chat,
      session,
      connection,
      lastSent,
      onConnectionChange: (e: AhpConnectionChangeEvent) => (connection.value = e.detail.state.kind),
      onSend: (e: AhpChatSendEvent) => (lastSent.value = e.detail.text),
      sendSum() {
        session.value?.currentStore?.dispatch(turnStarted({ text: '/sum 1 2' }), chat);
      },
    };
  },
});
// Vue's in-browser compiler would also take tags already in customElements as custom elements; this option is what a
// build-time compiled template (an SFC: vite-plugin-vue's `template.compilerOptions`) needs, and it does not depend on
// the elements being defined before the app mounts.
app.config.compilerOptions.isCustomElement = (tag) => tag.startsWith('ahp-');
app.mount('#app');
