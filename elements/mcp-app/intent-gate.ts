/**
 * Side effects a View asks for (send a message, open a link, download, change display mode) need the user.
 * An intent is honoured directly only right after the user interacted with that App's frame; otherwise the
 * element asks with a host-owned prompt. The page can set, per kind, `allow` (always directly), `ask`
 * (default: directly after an interaction, else prompt) or `deny`.
 */

/** The kinds of View side effect the policy covers. */
export type AppIntentKind = 'message' | 'openLink' | 'download' | 'displayMode';
/** What to do with one kind of intent. */
export type AppIntentDecision = 'allow' | 'ask' | 'deny';
/** Per-kind policy; missing kinds use `ask`. */
export type AppIntentPolicy = Partial<Record<AppIntentKind, AppIntentDecision>>;

/** How long after focus entered the frame an interaction counts (matches the browsers' transient activation). */
const INTERACTION_WINDOW_MS = 5000;

interface UserActivationLike {
  readonly isActive: boolean;
}

/**
 * Watches one App's frame for the user: focus entering it (a click or Tab into the View) and the page's
 * transient user activation while the frame holds focus (a click or key press inside the View propagates
 * activation to the page). Each interaction pays for one direct side effect of each kind.
 */
export class InteractionTracker {
  private focusedAt = -Infinity;
  private readonly spentAt = new Map<AppIntentKind, number>();
  declare private frame: HTMLIFrameElement | undefined;
  declare private readonly now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.now = now;
  }

  /** Starts watching `frame`; returns the stop function. */
  watch(frame: HTMLIFrameElement): () => void {
    this.frame = frame;
    this.focusedAt = -Infinity;
    this.spentAt.clear();
    const onFocus = (): void => {
      this.focusedAt = this.now();
    };
    frame.addEventListener('focus', onFocus);
    return () => {
      frame.removeEventListener('focus', onFocus);
      if (this.frame === frame) this.frame = undefined;
    };
  }

  /** Whether the frame holds the page's focus now. */
  private frameFocused(): boolean {
    const frame = this.frame;
    if (!frame?.isConnected || !document.hasFocus()) return false;
    const root = frame.getRootNode() as Document | ShadowRoot;
    return root.activeElement === frame;
  }

  /** True when the user interacted with this App's frame recently enough to honour one `kind` directly. */
  fresh(kind: AppIntentKind): boolean {
    if (!this.frameFocused()) return false;
    const t = this.now();
    const spent = this.spentAt.get(kind) ?? -Infinity;
    if (this.focusedAt > spent && t - this.focusedAt <= INTERACTION_WINDOW_MS) return true;
    // Activation seen more than one window after the last spend comes from a newer gesture.
    const activation = (navigator as Navigator & { userActivation?: UserActivationLike }).userActivation;
    return !!activation?.isActive && t - spent > INTERACTION_WINDOW_MS;
  }

  /** Uses up the current interaction for `kind`. */
  spend(kind: AppIntentKind): void {
    this.spentAt.set(kind, this.now());
  }
}

/** The decision for `kind` under `policy` (missing → `ask`). */
export function decisionFor(policy: AppIntentPolicy | undefined, kind: AppIntentKind): AppIntentDecision {
  const d = policy?.[kind];
  return d === 'allow' || d === 'deny' ? d : 'ask';
}
