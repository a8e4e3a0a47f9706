// The activity log as other modules may use it: the importer's bulk load (sinks, runs, the
// context index, event rows) and the console's views (filters, statistics).
export { PostgresSink } from './bulk/postgres-sink.ts';
export { SqliteSink } from './bulk/sqlite-sink.ts';
export { clearContextIndex, COUNTER_INDEXED_BLOCKS } from './index/build.ts';
export { bulkWrittenTables, type EventSink, type IndexDefinition } from './bulk/sink.ts';
export { eventFilterFromParams, type EventFilterParams } from './read/query.ts';
export { presetRunsForRebuild } from './bulk/generate.ts';
export { purgeAndLog } from './write/maintenance.ts';
export { rebuildRuns } from './write/runs.ts';
export { countInRange, countsByMessage, type StatsRange } from './stats/range.ts';
export { LOG_LEVELS, type PreparedEvent, searchTextOf } from './model/event.ts';
export { contextJson, storableText } from './model/context.ts';
export { COUNTER_TOTAL, readCounter } from './model/counters.ts';
export { stickEvent, unstickEvent } from './write/sticky.ts';
export { filterCondition } from './read/conditions.ts';
export { BLOCK_EVENTS } from './index/terms.ts';
