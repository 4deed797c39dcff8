/** Whether the page may cancel an event: `preventDefault()` keeps the element from doing what it announced. */
export type Cancelable = 'cancelable' | 'not-cancelable';

/**
 * Base of every event the elements dispatch: bubbles and crosses shadow roots (`composed`), carries a typed
 * `detail`. Each subclass names its event once (`static readonly eventName`) and says whether it is cancelable.
 *
 * ```ts
 * export class AhpThingDoneEvent extends AhpEvent<ThingDoneDetail> {
 *   static readonly eventName = 'ahp-thing-done';
 *   constructor(detail: ThingDoneDetail) {
 *     super(AhpThingDoneEvent.eventName, detail, 'cancelable');
 *   }
 * }
 * ```
 */
export abstract class AhpEvent<Detail> extends Event {
  /** What happened, and (for a cancelable event) what the element will do unless cancelled. */
  readonly detail: Detail;

  protected constructor(type: string, detail: Detail, cancelable: Cancelable) {
    super(type, { bubbles: true, composed: true, cancelable: cancelable === 'cancelable' });
    this.detail = detail;
  }
}
