// Demo data of sched/v1: business details, styles and two notification templates.
import type { AppServices } from '../../site/services.ts';
import { CLI_ORIGIN, loggerEntry, type ActivityOrigin } from '../../site/activity.ts';
import { schedLogger } from './logger.ts';
import { updateSection } from './settings.ts';
import { loadSections } from './store.ts';

const ADMIN_USER = {
  id: 0,
  login: 'seed',
  email: '',
  displayName: 'Seed',
  role: 'administrator' as const,
  can: () => true,
};

export const DEMO_NOTIFICATIONS = [
  {
    id: 1700000001,
    schema: '2019-04-02',
    title: 'Email (Customer)',
    type: 'email',
    trigger: 'appointment_booked',
    when: 'after',
    duration: 0,
    sent_to: ['{{customer_email}}'],
    subject: 'Your appointment with {{ Global.company_name }}',
    message:
      '<p>Hello {{ Appointment.customer_information.Name }},</p>\n' +
      '<p>your appointment "{{ Appointment.AppointmentType.title }}" is booked for {{ Appointment.customer_start_date }}.</p>\n' +
      '{% if instructions %}<p>{{ instructions|nl2br }}</p>{% endif %}\n' +
      '{% if Appointment.web_meeting_url %}<p>Join: {{ Appointment.web_meeting_url|link }}</p>{% endif %}\n' +
      '<p>{{ add_to_calendar_link.gcal|link("Add to Calendar"|trans) }}</p>\n' +
      '<p>{{ "Cancel or reschedule"|trans }}: {{ Appointment.public_edit_url|link }}</p>',
    appointment_types: [],
    active: true,
  },
  {
    id: 1700000002,
    schema: '2019-04-02',
    title: 'Email (Admin)',
    type: 'email',
    trigger: 'appointment_booked',
    when: 'after',
    duration: 0,
    sent_to: ['{{admin_email}}'],
    subject: 'New booking: {{ Appointment.customer_information.Name }}',
    message:
      '<p>{{ Appointment.customer_information.Name }} booked "{{ Appointment.AppointmentType.title }}" for {{ Appointment.business_start_date }}.</p>\n' +
      '<pre>{{ Appointment.customer_information_summary }}</pre>',
    appointment_types: [],
    active: true,
  },
];

/** Seeds the demo settings once: sections already saved are left alone. Returns the sections written. */
export async function seedDemo(app: AppServices, origin: ActivityOrigin = CLI_ORIGIN): Promise<string[]> {
  const ctx = { app, user: ADMIN_USER, lang: 'en' as const };
  const stored = await loadSections(app.db);
  const demo: Record<string, Record<string, unknown>> = {
    global: {
      company_name: 'Example Partners GmbH',
      timezone_string: 'Europe/Berlin',
      country_code: 'DE',
      admin_email: 'bookings@example.com',
      wizard_completed: true,
    },
    styles: { accent_color: '#1e6fd9', font: 'Open Sans' },
    notifications: { notifications: DEMO_NOTIFICATIONS },
  };
  const written: string[] = [];
  for (const [section, fields] of Object.entries(demo)) {
    if (stored.has(section)) continue;
    await updateSection(ctx, section, fields);
    written.push(section);
  }
  if (written.length)
    await app.activity.log(
      loggerEntry(schedLogger, 'settings_updated', { sections: written.join(', '), seeded: true }),
      origin,
    );
  return written;
}
