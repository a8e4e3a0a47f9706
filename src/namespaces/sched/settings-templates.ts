// The Twig template objects of sched/v1's settings: notifications and calendar events, their
// schemas, defaults and the normalisation of their templates before they are saved.
import { utcNow } from '../../site/time.ts';
import { normalizeTemplate } from './twig.ts';
import type { FieldSchema } from './validate.ts';

const TRIGGERS = [
  'appointment_booked',
  'appointment_pending',
  'appointment_canceled',
  'appointment_rescheduled',
  'appointment_start_date',
  'appointment_abandoned',
  'appointment_customer_information_edited',
] as const;

/** A notification's `sent_to`, `cc` and `bcc`: email addresses or template tokens such as {{customer_email}}. */
const RECIPIENTS: FieldSchema = {
  type: 'array',
  maxItems: 50,
  items: { type: 'string', maxLength: 254, 'x-check': 'recipient' },
};

export const NOTIFICATION_SCHEMA: FieldSchema = {
  type: 'object',
  required: ['title', 'type', 'trigger', 'sent_to', 'message'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer', minimum: 1 },
    schema: { type: 'string', maxLength: 20 },
    title: { type: 'string', minLength: 1, maxLength: 200 },
    type: { type: 'string', enum: ['email', 'sms'] },
    trigger: { type: 'string', enum: TRIGGERS },
    when: { type: 'string', enum: ['after', 'before'] },
    duration: { type: 'integer', minimum: 0, maximum: 525600 },
    sent_to: RECIPIENTS,
    cc: RECIPIENTS,
    bcc: RECIPIENTS,
    subject: { type: 'string', maxLength: 1000, 'x-check': 'twig-template' },
    message: { type: 'string', maxLength: 200000, 'x-check': 'twig-template' },
    appointment_types: { type: 'array', items: { type: 'integer', minimum: 1 } },
    active: { type: 'boolean' },
    last_modified: { type: ['string', 'null'], maxLength: 19 },
  },
};

export const CALENDAR_EVENT_SCHEMA: FieldSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    title: { type: 'string', maxLength: 1000, 'x-check': 'twig-template' },
    details: { type: 'string', maxLength: 100000, 'x-check': 'twig-template' },
    location: { type: 'string', maxLength: 1000, 'x-check': 'twig-template' },
  },
};

export function calendarDefault(who: 'customer' | 'admin', group: boolean): Record<string, string> {
  return who === 'customer'
    ? { title: '{{ Appointment.AppointmentType.title }}', details: '{{ instructions }}', location: '{{ location }}' }
    : {
        title: group
          ? '{{ Appointment.AppointmentType.title }} ({{ attendees_list }})'
          : '{{ Appointment.AppointmentType.title }} ({{ Appointment.customer_information.Name }})',
        details: '{{ Appointment.customer_information_summary }}',
        location: '{{ location }}',
      };
}

/** Cleans `{{ }}` spacing and stray tags of templates before they are saved. */
export function normalizeNotifications(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  // New notifications get a unix-timestamp-like id, unique within the list.
  const used = new Set(
    value
      .map((n) => (n && typeof n === 'object' ? (n as Record<string, unknown>).id : undefined))
      .filter((id) => typeof id === 'number'),
  );
  let nextId = Math.floor(Date.now() / 1000);
  return value.map((n) => {
    if (!n || typeof n !== 'object') return n;
    const out = { ...(n as Record<string, unknown>) };
    if (typeof out.id !== 'number') {
      while (used.has(nextId)) nextId++;
      out.id = nextId;
      used.add(nextId);
    }
    if (typeof out.subject === 'string') out.subject = normalizeTemplate(out.subject);
    if (typeof out.message === 'string') out.message = normalizeTemplate(out.message);
    out.schema ??= '2019-04-02';
    out.when ??= 'after';
    out.duration ??= 0;
    out.appointment_types ??= [];
    out.active ??= true;
    out.last_modified = utcNow();
    return out;
  });
}

export function normalizeCalendarEvent(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      k,
      typeof v === 'string' ? normalizeTemplate(v) : v,
    ]),
  );
}
