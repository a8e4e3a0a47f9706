// How large a log the columns (columns/store.ts) hold, apart from them: the read path's plan
// weighs it too, and importing the columns' keeper from there would close a cycle of imports.

/**
 * Events up to which the columns are kept (about 28 bytes each; 56 MB at this bound): a larger
 * log is read as before, within the server's memory budget.
 */
export const MAX_COLUMN_ROWS = 2_000_000;
