// POST /events: a custom entry, written through the activity log like every other event.
import type { AppServices } from '../../../site/services.ts';
import { loggerEntry, type ActivityOrigin, type LogLevel } from '../../../site/activity.ts';
import { customEntryLogger } from '../loggers/custom-entry.ts';

export interface CustomEntryInput {
  message: string;
  note?: string;
  level: LogLevel;
  date?: string;
}

/** POST /events: a custom entry, logged like every other event. Returns the new id. */
export async function createCustomEntry(
  app: AppServices,
  input: CustomEntryInput,
  origin: ActivityOrigin,
): Promise<number> {
  const context: Record<string, unknown> = { message: input.message };
  if (input.note) context.note = input.note;
  return app.activity.log(
    loggerEntry(customEntryLogger, 'custom_entry_added', context, {
      level: input.level,
      ...(input.date ? { date: input.date } : {}),
    }),
    origin,
  );
}
