// Demo content of the activity log: a few hundred realistic events of the last two weeks.
import type { AppServices } from '../../site/services.ts';
import type { ActivityOrigin } from '../../site/activity.ts';
import { generateEvents } from './bulk/generate.ts';

export const DEMO_EVENT_COUNT = 300;
const SEEDED_OPTION = 'history_demo_seeded';

/** Adds the demo events once per site (safe to run again). Returns how many were written. */
export async function seedDemo(app: AppServices, _origin?: ActivityOrigin): Promise<number> {
  if (app.options.get(SEEDED_OPTION)) return 0;
  const written = await generateEvents(app, { count: DEMO_EVENT_COUNT, days: 14 });
  await app.options.set(SEEDED_OPTION, true);
  return written;
}
