// GET notices/schema: the JSON Schema of a notice of the catalogue and of the notice
// endpoints' payloads, as the API publishes it.
import { NOTICES } from './notice-catalogue.ts';

/** GET notices/schema: JSON Schema of a notice and of the notice endpoints' payloads. */
export function noticesJsonSchema(): Record<string, unknown> {
  const localized = { type: 'string' };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'sched/v1/notices',
    title: 'notice',
    type: 'object',
    required: ['id', 'name', 'description', 'type', 'active', 'priority', 'requires'],
    properties: {
      id: { type: 'string', pattern: '^[a-zA-Z0-9_-]+$', enum: NOTICES.map((x) => x.id) },
      name: localized,
      description: localized,
      type: {
        type: 'array',
        items: {
          type: 'string',
          enum: [
            'upgrade_promo',
            'feature_promo',
            'feature_setup',
            'announcement',
            'celebration',
            'blog_post',
            'error_msg',
            'warning_msg',
          ],
        },
      },
      active: { type: 'boolean' },
      priority: { type: 'string', pattern: '^\\d+$', description: '1 = most important … 40 = least' },
      requires: {
        type: 'object',
        additionalProperties: false,
        properties: {
          editions: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 4 } },
          min_appointments: { type: 'integer', minimum: 0 },
          min_days_active: { type: 'integer', minimum: 0 },
          activated_after: { type: 'string', format: 'date' },
          plugins: { type: 'array', items: { type: 'string' } },
          installed: { type: 'array', items: { type: 'string' } },
          not_installed: { type: 'array', items: { type: 'string' } },
          enabled: { type: 'array', items: { type: 'string' } },
          not_enabled: { type: 'array', items: { type: 'string' } },
          capabilities: { type: 'array', items: { type: 'string' } },
          empty_settings: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    $defs: {
      list: {
        type: 'object',
        properties: {
          notice_to_display: { type: 'string' },
          pinned_notices: { type: 'array', items: { type: 'string' } },
        },
      },
      state: {
        type: 'object',
        properties: {
          dismissed: { type: 'boolean' },
          dismissed_globally: { type: 'boolean' },
          dismissed_for_user: { type: 'boolean' },
          pinned: { type: 'boolean' },
          eligible: { type: 'boolean' },
        },
      },
      error_notice: {
        type: 'object',
        required: ['id', 'type', 'priority', 'message'],
        properties: {
          id: { type: 'string' },
          type: { enum: ['error', 'warning'] },
          priority: { type: 'integer' },
          message: { type: 'string' },
          link: { type: 'string' },
          link_message: { type: 'string' },
        },
      },
    },
  };
}
