import { SESSION_ACTIVITY_MASK, SessionStatus } from '../protocol/session.js';

/** Bit 4: the part of `InputNeeded` that is not `InProgress`. */
const INPUT_NEEDED_ONLY = SessionStatus.InputNeeded & ~SessionStatus.InProgress;

/** A status number, 0 for garbage (bitwise ops treat undefined as 0 too). */
export const statusOf = (status: unknown): number => (typeof status === 'number' && Number.isFinite(status) ? status : 0);

/** Sets or clears `flag`, keeping every other bit (unknown ones included). */
export function withStatusFlag(status: unknown, flag: number, on: boolean): number {
  const s = statusOf(status);
  return (on ? s | flag : s & ~flag) >>> 0;
}

/** Replaces the activity bits (0-4) with `activity`, keeping the flags and unknown high bits. */
export function withActivity(status: unknown, activity: number): number {
  return ((statusOf(status) & ~SESSION_ACTIVITY_MASK) | activity) >>> 0;
}

/** True when every bit of `bits` is set. */
export const hasStatus = (status: unknown, bits: number): boolean => (statusOf(status) & bits) === bits;

/**
 * Session status after the input-needed list changed: any entry other than `toolClientExecution`
 * means `InputNeeded`; otherwise only bit 4 is cleared, so a running turn falls back to `InProgress`
 * and an idle session stays idle.
 */
export function withInputNeededStatus(status: unknown, inputNeeded: readonly unknown[]): number {
  const blocked = inputNeeded.some((r) => !(typeof r === 'object' && r !== null && (r as { kind?: unknown }).kind === 'toolClientExecution'));
  return blocked ? withActivity(status, SessionStatus.InputNeeded) : withStatusFlag(status, INPUT_NEEDED_ONLY, false);
}
