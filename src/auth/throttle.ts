// Failed-login throttling per client IP: after MAX_FAILURES failures within WINDOW_MS, further
// credential checks from that IP are refused until the oldest failure leaves the window.
// In memory, per process: each process of a multi-process deployment throttles on its own,
// which still caps guessing at MAX_FAILURES per minute per process.
import type { AppServices } from '../app.ts';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 60_000;
const MAX_TRACKED_IPS = 10_000;

export class LoginThrottle {
  /** IP → times of recent failures, oldest first. */
  private readonly failures = new Map<string, number[]>();

  /** Seconds the IP must wait, or 0 when it may try. */
  retryAfter(ip: string, now = Date.now()): number {
    const times = this.recent(ip, now);
    if (times.length < MAX_FAILURES) return 0;
    return Math.max(1, Math.ceil((times[times.length - MAX_FAILURES]! + WINDOW_MS - now) / 1000));
  }

  recordFailure(ip: string, now = Date.now()): void {
    const times = this.recent(ip, now);
    times.push(now);
    this.failures.delete(ip); // re-insert: the Map's order is then least recently failing first
    if (this.failures.size >= MAX_TRACKED_IPS) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(ip, times.slice(-MAX_FAILURES));
  }

  private recent(ip: string, now: number): number[] {
    const times = (this.failures.get(ip) ?? []).filter((t) => t > now - WINDOW_MS);
    if (times.length) this.failures.set(ip, times);
    else this.failures.delete(ip);
    return times;
  }
}

const throttles = new WeakMap<AppServices, LoginThrottle>();

export function loginThrottle(app: AppServices): LoginThrottle {
  let throttle = throttles.get(app);
  if (!throttle) {
    throttle = new LoginThrottle();
    throttles.set(app, throttle);
  }
  return throttle;
}
