type PostTask = (task: () => void, options: { priority: 'background' }) => Promise<unknown>;
const scheduler = (globalThis as { scheduler?: { postTask?: PostTask } }).scheduler;
const postTask: PostTask | undefined = scheduler?.postTask?.bind(scheduler);

/** A task behind the page's own work (input, rendering, timers) where the browser can say so, else the next task. */
export const later = (task: () => void): void => void (postTask ? postTask(task, { priority: 'background' }) : setTimeout(task, 0));

/** `task` in a background task after the next frame is painted. */
export const afterPaint = (task: () => void): void => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => later(task));
  else later(task);
};
