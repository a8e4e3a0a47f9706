// notifications/preview (reference plugins.md §2.7): renders a template with realistic example
// appointment data. This server stores no appointments, so the data is always an example built
// for the given (or a default) appointment type; a template error becomes an escaped HTML error
// summary inside the preview instead of an API error.
import type { AppServices } from '../../site/services.ts';
import type { Lang } from '../../rest/types.ts';
import { isValidTimeZone, formatUtc } from '../../site/time.ts';
import { formatPhpDate } from './dates.ts';
import { readSectionValues } from './settings.ts';
import { sanitizeHtml } from './sanitize.ts';
import { containsJavaScript, errorSummaryHtml } from './twig.ts';
import { TemplateError, TemplateLimitError } from './twig-errors.ts';
import { renderInBox } from './template-box.ts';

export interface PreviewOptions {
  appointmentTypeId?: number;
  /** Fixed "now" for tests. */
  now?: Date;
}

const TEXT = {
  en: {
    typeTitle: 'Initial consultation',
    instructions: 'Please bring your documents. We will call you at the number you gave us.',
    refund: 'Cancel up to 24 hours in advance for a full refund.',
    note: 'Example note: the customer asked to move the appointment.',
    summary: (name: string, email: string, phone: string) => `Name: ${name}\nEmail: ${email}\nPhone: ${phone}`,
    title: 'Example booking page',
  },
  de: {
    typeTitle: 'Erstberatung',
    instructions: 'Bitte bringen Sie Ihre Unterlagen mit. Wir rufen Sie unter der angegebenen Nummer an.',
    refund: 'Bis 24 Stunden vorher kostenlos stornierbar.',
    note: 'Beispielnotiz: Der Kunde hat um eine Verschiebung gebeten.',
    summary: (name: string, email: string, phone: string) => `Name: ${name}\nE-Mail: ${email}\nTelefon: ${phone}`,
    title: 'Beispiel-Buchungsseite',
  },
} as const;

function gcalDate(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The variables of a notification template (reference §2.4), with example values. */
export async function exampleContext(
  app: AppServices,
  lang: Lang,
  opts: PreviewOptions = {},
): Promise<Record<string, unknown>> {
  const global = await readSectionValues(app, 'global');
  const businessTz =
    typeof global.timezone_string === 'string' && isValidTimeZone(global.timezone_string)
      ? global.timezone_string
      : 'UTC';
  const customerTz = lang === 'de' ? 'Europe/Vienna' : 'America/New_York';
  const now = opts.now ?? new Date();
  const start = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000 + 86_400_000); // tomorrow, on the hour
  const end = new Date(start.getTime() + 30 * 60_000);
  const t = TEXT[lang];
  const format = `${String(global.date_format || 'F j, Y')} ${String(global.time_format || 'g:i a')} (T)`;
  const typeId = opts.appointmentTypeId ?? 1;
  const customer =
    lang === 'de'
      ? { Name: 'Erika Mustermann', Email: 'erika.mustermann@example.com', Phone: '+49 30 1234567' }
      : { Name: 'Alex Example', Email: 'alex.example@example.com', Phone: '+1 555 0100' };
  const site = app.config.siteUrl;
  const editUrl = `${site}/${lang}/booking/change/example-${typeId}?token=preview`;
  const meetingUrl = `${site}/${lang}/meet/example-${typeId}`;
  const title = t.typeTitle;
  const gcal = new URL('https://calendar.google.com/calendar/render');
  gcal.searchParams.set('action', 'TEMPLATE');
  gcal.searchParams.set('text', title);
  gcal.searchParams.set('dates', `${gcalDate(start)}/${gcalDate(end)}`);
  gcal.searchParams.set('details', t.instructions);
  gcal.searchParams.set('location', meetingUrl);
  const appointmentType = {
    id: typeId,
    title,
    slug: 'initial-consultation',
    duration: 30,
    instructions: t.instructions,
    customer_information: [
      { field: 'Name', type: 'single-text', required: true },
      { field: 'Email', type: 'single-text', required: true },
      { field: 'Phone', type: 'phone', required: false },
    ],
    payments: { refund_policy: t.refund },
  };
  const appointment = {
    id: 0,
    appointment_type_id: typeId,
    start_date: formatUtc(start),
    end_date: formatUtc(end),
    status: 'booked',
    customer_id: 0,
    customer_timezone: customerTz,
    customer_locale: lang === 'de' ? 'de_DE' : 'en_US',
    date_timezone: businessTz,
    web_meeting_url: meetingUrl,
    public_edit_url: editUrl,
    customer_information: customer,
    customer_information_strings: customer,
    customer_information_summary: t.summary(customer.Name, customer.Email, customer.Phone),
    customer_start_date: formatPhpDate(start, format, customerTz, lang),
    business_start_date: formatPhpDate(start, format, businessTz, lang),
    customer_end_date: formatPhpDate(end, format, customerTz, lang),
    business_end_date: formatPhpDate(end, format, businessTz, lang),
    customer_prev_start_date: null,
    customer_prev_start_dates: null,
    business_prev_start_date: null,
    business_prev_start_dates: null,
    AppointmentType: appointmentType,
  };
  return {
    Global: {
      ...global,
      site_url: site,
      home_url: `${site}/${lang}`,
      company_name: global.company_name || app.options.get('blogname'),
    },
    Appointment: appointment,
    admin_email: global.admin_email ?? '',
    customer_email: customer.Email,
    customer_name: customer.Name,
    instructions: t.instructions,
    location: meetingUrl,
    attendees_list: customer.Name,
    refund_policy: t.refund,
    booking_url: `${site}/${lang}/booking`,
    booking_post_id: global.booking_post_id ?? '',
    booking_title: t.title,
    cancelation_note: t.note,
    canceled_by_name: customer.Name,
    rescheduling_note: t.note,
    rescheduled_by_name: customer.Name,
    add_to_calendar_link: { ics: `${site}/${lang}/booking/ics/example-${typeId}?token=preview`, gcal: gcal.toString() },
    team_member_name: '',
    team_member_email: '',
    team_member_phone: '',
    Customer: null,
  };
}

/**
 * Renders the preview HTML (in the template box); a template problem yields the escaped error
 * summary. A template beyond the box's limits throws its TemplateLimitError.
 */
export async function renderPreview(
  app: AppServices,
  lang: Lang,
  template: string,
  opts: PreviewOptions = {},
): Promise<{ preview: string; error: string | null }> {
  if (containsJavaScript(template)) {
    const err = new TemplateError('security', 'JavaScript is not allowed in Twig templates.', null);
    return { preview: errorSummaryHtml(template, err), error: err.message };
  }
  const context = await exampleContext(app, lang, opts);
  try {
    const html = await renderInBox(template, context, lang);
    return { preview: sanitizeHtml(html), error: null };
  } catch (err) {
    if (err instanceof TemplateLimitError) throw err;
    const te =
      err instanceof TemplateError
        ? err
        : new TemplateError('runtime', err instanceof Error ? err.message : String(err), null);
    return { preview: errorSummaryHtml(template, te), error: te.message };
  }
}
