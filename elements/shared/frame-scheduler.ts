/**
 * A `scheduleNotify` for pages (`SessionStoreOptions.scheduleNotify`): the store's listeners hear of received
 * envelopes once per animation frame, just before it is rendered, so every envelope of a frame is folded as one
 * burst and each element reads and renders once. A hidden page gets no frames: there they are told at the next
 * microtask, and a page hidden after the request is told when it shows again (reads always see the current state;
 * actions that wait are folded a thousand at a time meanwhile).
 */
export const frameScheduler = (flush: () => void): unknown => (document.hidden ? queueMicrotask(flush) : requestAnimationFrame(flush));
