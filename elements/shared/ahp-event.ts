/** What an `AhpEvent` subclass declares about itself. */
interface AhpEventClass {
  /** The event's type (`ahp-…`). */
  readonly eventName: string;
  /** Whether `preventDefault()` keeps the element from doing what the event announces. */
  readonly cancelable: boolean;
}

/**
 * Base of every event the elements dispatch: bubbles and crosses shadow roots (`composed`), carries a typed
 * `detail`. A subclass only names its event (`static readonly eventName`, required) and says whether it is cancelable;
 * it is then constructed with its detail alone:
 *
 * ```ts
 * export class AhpThingDoneEvent extends AhpEvent<ThingDoneDetail> {
 *   static readonly eventName = 'ahp-thing-done';
 *   static override readonly cancelable = true;
 * }
 * ```
 */
export abstract class AhpEvent<Detail> extends Event {
  /** Whether the page may cancel the event (`preventDefault()` keeps the element from acting); false unless a subclass says so. */
  static readonly cancelable: boolean = false;

  /** What happened, and (for a cancelable event) what the element will do unless cancelled. */
  readonly detail: Detail;

  constructor(detail: Detail) {
    const { eventName, cancelable } = new.target as unknown as AhpEventClass;
    super(eventName, { bubbles: true, composed: true, cancelable });
    this.detail = detail;
  }
}
