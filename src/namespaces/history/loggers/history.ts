import { defineLogger } from '../../../site/activity.ts';
import { option, t } from './define.ts';

/** The activity log's own operations (backfill, settings, purges). */
export const historyLogger = defineLogger({
  slug: 'SimpleHistoryLogger',
  name: t('History Logger', 'Verlaufs-Protokoll'),
  via: t('Using the activity log', 'Über das Aktivitätsprotokoll'),
  capability: 'manage_options',
  messages: {
    modified_settings: t('Modified settings', 'Einstellungen geändert'),
    regenerated_rss_feed_secret: t('Regenerated RSS feed secret', 'RSS-Feed-Geheimnis neu erzeugt'),
    cleared_log: t(
      'Cleared the log ({num_rows_deleted} rows were removed)',
      'Protokoll geleert ({num_rows_deleted} Zeilen entfernt)',
    ),
    purged_events: t(
      'Removed {num_rows} events that were older than {days} days',
      '{num_rows} Ereignisse entfernt, die älter als {days} Tage waren',
    ),
    // Ours (write/maintenance.ts): `content-site events purge --generated` and `--before DATE`.
    purged_generated_events: t('Removed {num_rows} generated events', '{num_rows} generierte Ereignisse entfernt'),
    purged_events_before: t(
      'Removed {num_rows} events dated before {before_date} (UTC)',
      '{num_rows} Ereignisse von vor {before_date} (UTC) entfernt',
    ),
    auto_backfill_completed: t(
      'Populated (backfilled) your history with {posts_imported} posts and {users_imported} users from the last {days_back} days',
      'Verlauf mit {posts_imported} Beiträgen und {users_imported} Benutzern der letzten {days_back} Tage befüllt',
    ),
    manual_backfill_completed: t(
      'Manual backfill created {post_events} post events and {user_events} user events',
      'Manuelles Befüllen erzeugte {post_events} Beitragsereignisse und {user_events} Benutzerereignisse',
    ),
    channel_auto_disabled: t(
      'Auto-disabled log forwarding channel "{channel_name}" after {failure_count} consecutive failures',
      'Weiterleitungskanal „{channel_name}“ nach {failure_count} aufeinanderfolgenden Fehlern automatisch deaktiviert',
    ),
    log_forwarding_settings_updated: t(
      'Updated Log Forwarding settings',
      'Einstellungen der Protokoll-Weiterleitung aktualisiert',
    ),
    event_stuck: t('Made event {event_id} sticky', 'Ereignis {event_id} angeheftet'),
    event_unstuck: t('Made event {event_id} no longer sticky', 'Ereignis {event_id} nicht mehr angeheftet'),
  },
  search: {
    label: t('Activity log', 'Aktivitätsprotokoll'),
    labelAll: t('All activity log activity', 'Alle Aktivitäten des Aktivitätsprotokolls'),
    options: [
      option(
        t('Settings changes', 'Einstellungsänderungen'),
        'modified_settings',
        'regenerated_rss_feed_secret',
        'log_forwarding_settings_updated',
      ),
      option(
        t('Log maintenance', 'Protokollpflege'),
        'cleared_log',
        'purged_events',
        'purged_generated_events',
        'purged_events_before',
      ),
      option(t('Backfill operations', 'Befüllungen'), 'auto_backfill_completed', 'manual_backfill_completed'),
      option(t('Channel events', 'Kanal-Ereignisse'), 'channel_auto_disabled'),
      option(t('Sticky events', 'Angeheftete Ereignisse'), 'event_stuck', 'event_unstuck'),
    ],
  },
});
