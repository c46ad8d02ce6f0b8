/** Where services read the time, so tests can move it. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export function createFakeClock(start = new Date('2026-03-01T08:00:00Z')): Clock & {
  set(d: Date): void;
  advanceMinutes(m: number): void;
} {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (d) => {
      current = new Date(d);
    },
    advanceMinutes: (m) => {
      current = new Date(current.getTime() + m * 60_000);
    },
  };
}
