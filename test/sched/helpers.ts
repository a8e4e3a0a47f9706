// Shared helpers of the sched/v1 tests.
import type { AppServices } from '../../src/site/services.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { roleCan, type Role } from '../../src/auth/roles.ts';
import type { Caller } from '../../src/namespaces/sched/service.ts';
import type { ActivityEntry } from '../../src/site/activity.ts';
import { RestResponse } from '../../src/rest/types.ts';

let nextId = 1000;
export function fakeUser(role: Role, id = nextId++): AuthUser {
  return {
    id,
    login: `${role}${id}`,
    email: `${role}${id}@example.com`,
    displayName: `${role} ${id}`,
    role,
    can: (c: string) => roleCan(role, c),
  };
}

export function callerFor(app: AppServices, user: AuthUser | null, lang: 'en' | 'de' = 'en'): Caller {
  return { app, user, lang, ip: '127.0.0.1' };
}

/** Records the activity-log entries written during a test. */
export function spyActivity(app: AppServices): ActivityEntry[] {
  const entries: ActivityEntry[] = [];
  const orig = app.activity.log.bind(app.activity);
  app.activity = {
    async log(entry, origin) {
      entries.push(entry);
      return orig(entry, origin);
    },
  };
  return entries;
}

/** Body and status of an operation result (plain data = 200). */
export function unwrap(result: unknown): { status: number; body: any } {
  if (result instanceof RestResponse) return { status: result.status, body: result.body };
  return { status: 200, body: result };
}
