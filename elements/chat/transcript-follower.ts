import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ActiveTurn } from '../../src/protocol/session.js';
import { isRecord } from '../../src/protocol/guards.js';

/** What the follower needs from `<ahp-chat>`. */
export interface TranscriptHost extends ReactiveControllerHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** The active turn, whose waiting tool calls are brought into view. */
  readonly activeTurn: ActiveTurn | undefined;
}

/** Within this many pixels of the end the transcript counts as scrolled to the newest content. */
const STICK_SLACK = 32;

/** Tool-call statuses that wait for the user (their buttons must be seen). */
const NEEDS_USER = new Set(['pending-confirmation', 'pending-result-confirmation', 'auth-required']);

/** The tool calls of a turn's response that wait for the user: `[toolCallId, name]`. */
export function waitingCalls(turn: ActiveTurn | undefined): [string, string][] {
  const parts: unknown[] = Array.isArray(turn?.responseParts) ? turn.responseParts : [];
  const out: [string, string][] = [];
  for (const p of parts) {
    const tc = isRecord(p) && p.kind === 'toolCall' && isRecord(p.toolCall) ? p.toolCall : undefined;
    if (tc && typeof tc.toolCallId === 'string' && NEEDS_USER.has(tc.status as string)) {
      out.push([tc.toolCallId, String(tc.displayName || tc.toolName || tc.toolCallId)]);
    }
  }
  return out;
}

/** `:state(x)` where supported. */
const hasState = (el: Element, state: string): boolean => {
  try {
    return el.matches(`:state(${state})`);
  } catch {
    return false;
  }
};

/**
 * Keeps `<ahp-chat>`'s transcript at the newest content unless the user scrolled up, and brings what waits for the
 * user into view once: a tool call's answer buttons (kept in view while the call grows), a newly shown MCP App.
 */
export class TranscriptFollower implements ReactiveController {
  /** Whether the transcript follows the newest content (the user has not scrolled away from the end). */
  stick = true;
  /** Where the follower itself last scrolled the transcript to. */
  private autoTop = -1;
  /** Tool calls and Apps already brought into view once (never yanked back into view afterwards). */
  private readonly revealed = new Set<string>();
  #observed: Element | undefined;
  /** The waiting tool call last brought into view: kept in view while it grows (an icon or font arriving late). */
  #shown: { id: string; el: HTMLElement } | undefined;
  private readonly resizeObserver =
    typeof ResizeObserver === 'function'
      ? new ResizeObserver(() => {
          this.followEnd();
          this.keepShown();
        })
      : undefined;

  constructor(private readonly host: TranscriptHost) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.resizeObserver?.disconnect();
    this.#observed = undefined;
  }

  /** After each render: watch the turns' size, follow the end, and bring newly waiting calls into view. */
  hostUpdated(): void {
    const turns = this.host.renderRoot.querySelector('.turns') ?? undefined;
    if (turns !== this.#observed) {
      if (this.#observed) this.resizeObserver?.unobserve(this.#observed);
      if (turns) this.resizeObserver?.observe(turns);
      this.#observed = turns;
    }
    this.followEnd();
    for (const [id] of waitingCalls(this.host.activeTurn)) {
      if (!this.revealed.has(id) && this.stick) void this.revealCall(id);
      this.revealed.add(id);
    }
  }

  get #transcript(): HTMLElement | null {
    return this.host.renderRoot.querySelector('[part="transcript"]');
  }

  /** Keeps the newest content in view unless the user scrolled up; a newly shown App of the newest turn is brought into view. */
  private followEnd(): void {
    const t = this.#transcript;
    if (!t || !this.stick) return;
    t.scrollTop = t.scrollHeight;
    this.autoTop = t.scrollTop;
    const last = this.host.renderRoot.querySelector('.turn:last-child');
    for (const tc of last?.querySelectorAll('ahp-tool-call') ?? []) {
      const app = tc.shadowRoot?.querySelector('ahp-mcp-app');
      const id = `app:${tc.getAttribute('tool-call-id')}`;
      if (app && !this.revealed.has(id) && hasState(app, 'ready') && app.getBoundingClientRect().height > 0) {
        this.revealed.add(id);
        this.reveal(tc);
      }
    }
  }

  /** Brings a tool call's answer buttons (or the whole call) into view, in the transcript and on the page. */
  async revealCall(toolCallId: string, focus = false): Promise<void> {
    const tc = this.host.renderRoot.querySelector<HTMLElement & { updateComplete?: Promise<unknown> }>(`ahp-tool-call[tool-call-id="${CSS.escape(toolCallId)}"]`);
    if (!tc) return;
    await tc.updateComplete;
    const actions = tc.shadowRoot?.querySelector<HTMLElement>('[part~="actions"]') ?? undefined;
    this.reveal(tc, actions);
    if (this.#shown) this.resizeObserver?.unobserve(this.#shown.el);
    this.#shown = { id: toolCallId, el: tc };
    this.resizeObserver?.observe(tc);
    if (focus) (actions?.querySelector<HTMLElement>('button') ?? tc).focus();
  }

  /** Re-reveals the shown call's buttons when its own growth pushed them just past an edge (never from far away). */
  private keepShown(): void {
    const shown = this.#shown;
    if (!shown) return;
    const actions = shown.el.shadowRoot?.querySelector<HTMLElement>('[part~="actions"]');
    if (!shown.el.isConnected || !actions || !waitingCalls(this.host.activeTurn).some(([id]) => id === shown.id)) {
      this.resizeObserver?.unobserve(shown.el);
      this.#shown = undefined;
      return;
    }
    const r = actions.getBoundingClientRect();
    const box = this.#transcript?.getBoundingClientRect();
    const cut = (top: number, bottom: number) => (r.top < top && r.bottom > top) || (r.top < bottom && r.bottom > bottom);
    if (cut(0, innerHeight) || (box && cut(box.top, box.bottom))) this.reveal(shown.el, actions);
  }

  /**
   * Scrolls the transcript so `el` shows: all of it when it fits, else `must` (answer buttons) at the bottom or the
   * start of `el`; then the page (or whatever scrolls around the chat), the least it can.
   */
  private reveal(el: Element, must?: Element): void {
    const t = this.#transcript;
    if (!t) return;
    const box = t.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    const fits = r.height <= t.clientHeight;
    const m = (must ?? el).getBoundingClientRect();
    const inBox = (x: DOMRect) => x.top >= box.top && x.bottom <= box.bottom;
    // Already in view (e.g. following the end): leave the transcript, and whether it follows, alone.
    const delta = fits
      ? inBox(r) ? 0 : r.bottom > box.bottom ? r.bottom - box.bottom : r.top - box.top
      : must
        ? inBox(m) ? 0 : m.bottom - box.bottom
        : r.top - box.top;
    if (delta) {
      t.scrollTop += delta;
      this.stick = t.scrollHeight - t.scrollTop - t.clientHeight <= STICK_SLACK;
    }
    (fits ? el : must ?? el).scrollIntoView({ block: 'nearest', inline: 'nearest' });
    this.autoTop = t.scrollTop;
  }

  /** The transcript's scroll listener: a scroll by the user decides whether the transcript keeps following. */
  readonly onScroll = (e: Event): void => {
    const t = e.currentTarget as HTMLElement;
    // Our own scrolling says nothing about the user (content may have grown before its scroll event arrived).
    if (Math.abs(t.scrollTop - this.autoTop) <= 1) return;
    this.stick = t.scrollHeight - t.scrollTop - t.clientHeight <= STICK_SLACK;
  };
}
