import type { McpAuthRequirement } from '../../src/protocol/customizations.js';
import type { AuthorizeOptions, AuthResult } from '../../src/auth/types.js';
import { PENDING_KEY } from '../../src/auth/flow-keys.js';
import { inflight } from '../../src/auth/inflight.js';
import { openPopupWindow } from '../../src/auth/popup-window.js';
import { listAuthBlockedToolCalls } from '../../src/store/input-selectors.js';
import { listMcpServers, selectMcpServer } from '../../src/store/selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import type { AuthenticateRequest } from '../../src/client/ahp-client.js';
import type { SessionHandle } from '../../src/client/session-handle.js';
import { AhpAuthCompleteEvent, AhpAuthErrorEvent, AhpAuthStartEvent, type AuthFlowDetail } from './events.js';
import { isRecord } from '../../src/protocol/guards.js';

/** Options `<ahp-session>` passes on to the driver (stores, client name, metadata document URL, fetch). */
export type SessionAuthOptions = Omit<AuthorizeOptions, 'client' | 'redirectUri' | 'mode' | 'popup'>;

/** What the built-in auth handling needs from `<ahp-session>`. */
export interface SessionAuthHost extends HTMLElement {
  readonly currentStore: SessionStoreLike | undefined;
  readonly currentHandle: SessionHandle | undefined;
  authRedirectUri: string | null | undefined;
  authMode: string | null | undefined;
  authOptions: SessionAuthOptions | undefined;
}

type Rec = Record<string, unknown>;

// The driver is loaded when first needed, so pages that never sign in do not carry it.
const driver = () => import('../../src/auth/driver-entry.js');

/** The requirement an `ahp-auth-request` is about: its own `auth`, else what the store shows for that server or tool call. */
export function requirementOf(detail: unknown, store: SessionStoreLike | undefined): McpAuthRequirement | undefined {
  if (!isRecord(detail)) return undefined;
  if (isRecord(detail.auth) && isRecord(detail.auth.resource)) return detail.auth as unknown as McpAuthRequirement;
  const state = store?.getState();
  if (detail.kind === 'toolCall' && typeof detail.chat === 'string') {
    const blocked = listAuthBlockedToolCalls([store?.getChatState(detail.chat)], state).find(
      (e) => e.chat === detail.chat && e.toolCall.toolCallId === detail.toolCallId,
    );
    if (blocked) return blocked.toolCall.auth;
  }
  // A server in authRequired (also what a tool call of that server waits for).
  // Any id is safe to look up (one that is not a string finds nothing).
  const server = selectMcpServer(state, detail.customizationId as string)?.server;
  return server?.state.kind === 'authRequired' ? (server.state as McpAuthRequirement) : undefined;
}

const claimed = new WeakSet<Event>();

/**
 * The default handler of `ahp-auth-request`: after the event has finished bubbling, unless someone cancelled it,
 * runs the OAuth driver and reports `ahp-auth-start`, then `ahp-auth-complete` or `ahp-auth-error`, at the element that asked.
 */
export function handleAuthRequest(host: SessionAuthHost, event: Event): void {
  // The nearest session answers; an outer one sees the same event bubble by.
  if (claimed.has(event)) return;
  claimed.add(event);
  const origin = (event.composedPath()[0] as EventTarget | undefined) ?? host;
  const request = (event as Event & { detail?: unknown }).detail;
  // Listeners above the session (document, window) may still cancel it: decided once the event is dispatched, still
  // in the click's task, so the popup opens with the click's user activation however long the driver takes to load.
  queueMicrotask(() => {
    if (!event.defaultPrevented) void runFlow(host, origin, request);
  });
}

// The flows this page's sessions run, by resource, with the session running each: a second request joins the running
// one and opens no window of its own (from another session, its host gets the token through authorize()), nor does a
// request for a resource the page is signing in to with authorize() itself.
const flows = new Map<unknown, [Promise<AuthResult>, SessionAuthHost]>();

async function runFlow(host: SessionAuthHost, origin: EventTarget, request: unknown): Promise<void> {
  const fire = (E: new (d: AuthFlowDetail) => Event, error?: unknown) =>
    origin.dispatchEvent(new E({ request, ...(error ? { error: error instanceof Error ? error : new Error(String(error)) } : {}) }));
  fire(AhpAuthStartEvent);
  let popup: Window | null | undefined;
  try {
    const requirement = requirementOf(request, host.currentStore);
    if (!requirement) throw new Error('There is nothing to sign in to any more.');
    const resource = requirement.resource.resource;
    const running = flows.get(resource);
    let flow = running?.[1] === host ? running[0] : undefined;
    if (!flow) {
      const mode = host.authMode === 'redirect' ? 'redirect' : 'popup';
      // The popup opens now, in the click's task: loading the driver, and for an expired token the refresh that may
      // make the window unneeded, can outlast the click's user activation. The driver closes it when it goes unused.
      if (mode === 'popup' && !running && !inflight.has(resource)) popup = openPopupWindow(requirement.reason === 'expired');
      flow = driver().then(({ authorize, defaultCallbackUrl }) =>
        authorize(requirement, {
          ...host.authOptions,
          client: { authenticate: authenticateOf(host.currentHandle) },
          redirectUri: host.authRedirectUri || defaultCallbackUrl(),
          mode,
          popup,
        } as AuthorizeOptions),
      );
      if (!running) flows.set(resource, [(flow = flow.finally(() => flows.delete(resource))), host]);
    }
    // Redirect mode: the page is leaving; the flow completes in `resumeAuth` after the reload.
    if (!(await flow).redirected) fire(AhpAuthCompleteEvent);
  } catch (error) {
    fire(AhpAuthErrorEvent, error);
  } finally {
    // The driver closes the popup it used; this one too when the flow never reached it (driver not loaded, bad redirect URI).
    popup?.close();
  }
}

/** The handle's `authenticate`, or a plain failure saying why this session cannot hand tokens to the host. */
const authenticateOf = (handle: SessionHandle | undefined) => (params: AuthenticateRequest) => {
  const reason = handle ? handle.unavailable('authenticate') : 'the session has a store but no handle (set .handle next to .store)';
  if (reason !== undefined) return Promise.reject(new Error(`this session cannot hand tokens to the host: ${reason}`));
  return handle!.authenticate(params);
};

/** After a full-page redirect: finishes the sign-in this tab started, once the store can reach the host. Failures → `ahp-auth-error` on the session. */
export async function resumeAuth(host: SessionAuthHost): Promise<void> {
  if (typeof sessionStorage === 'undefined' || !sessionStorage.getItem(PENDING_KEY)) return;
  const store = host.currentStore;
  try {
    const { resumeRedirectFlow } = await driver();
    const result = await resumeRedirectFlow({
      ...host.authOptions,
      // JSON.parse(null) is null: no crash should the pending flow have gone during the await.
      clientSecret: clientSecretFor(JSON.parse(sessionStorage.getItem(PENDING_KEY) as string)?.clientId, store),
      client: { authenticate: authenticateOf(host.currentHandle) },
    });
    if (result) host.dispatchEvent(new AhpAuthCompleteEvent({ request: { kind: 'redirect', resource: result.resource } }));
  } catch (error) {
    host.dispatchEvent(new AhpAuthErrorEvent({ request: { kind: 'redirect' }, error: error as Error }));
  }
}

/** The secret of a confidential `oauthClient` the session's state shows for this client id (never kept across the redirect). */
function clientSecretFor(clientId: unknown, store: SessionStoreLike | undefined): string | undefined {
  for (const { server } of listMcpServers(store?.getState())) {
    const client = (server.state as Partial<McpAuthRequirement>).oauthClient;
    if (client && client.clientId === clientId && client.clientSecret) return client.clientSecret;
  }
  return undefined;
}
