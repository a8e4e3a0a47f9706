// The activity log as other modules may use it: the importer's bulk load (sinks, runs, the
// context index, event rows) and the console's views (filters, statistics).
export { PostgresSink } from './bulk-postgres.ts';
export { SqliteSink } from './bulk-sqlite.ts';
export { BLOCK_EVENTS, clearContextIndex, COUNTER_INDEXED_BLOCKS } from './context-index.ts';
export { type EventSink, type IndexDefinition } from './event-sink.ts';
export { stickEvent, unstickEvent } from './events.ts';
export { eventFilterFromParams, filterCondition } from './filters.ts';
export { presetRunsForRebuild } from './generate.ts';
export { purgeAndLog } from './maintenance.ts';
export { rebuildRuns } from './runs.ts';
export { countsByMessage, type StatsRange } from './stats.ts';
export {
  contextJson, COUNTER_TOTAL, LOG_LEVELS, type PreparedEvent, readCounter, searchTextOf, storableText,
} from './store.ts';
