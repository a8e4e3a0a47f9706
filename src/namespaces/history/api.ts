// The activity log as other modules may use it: the importer's bulk load (sinks, runs, the
// context index, event rows) and the console's views (filters, statistics).
export { PostgresSink } from './bulk/postgres-sink.ts';
export { SqliteSink } from './bulk/sqlite-sink.ts';
export { BLOCK_EVENTS, clearContextIndex, COUNTER_INDEXED_BLOCKS } from './index/build.ts';
export { type EventSink, type IndexDefinition } from './bulk/sink.ts';
export { stickEvent, unstickEvent } from './read/list.ts';
export { eventFilterFromParams, filterCondition } from './read/query.ts';
export { presetRunsForRebuild } from './bulk/generate.ts';
export { rebuildRuns } from './write/runs.ts';
export { countsByMessage, type StatsRange } from './stats/reports.ts';
export {
  contextJson, COUNTER_TOTAL, LOG_LEVELS, type PreparedEvent, readCounter, searchTextOf, storableText,
} from './model/event.ts';
