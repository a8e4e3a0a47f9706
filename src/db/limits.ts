// What one SQL statement can hold, for arguments that become one bound value or one OR term each.

/**
 * Items a list argument may hold. Each becomes a bound value of one statement, and databases take
 * only so many (SQLite 32,766, PostgreSQL 65,535): 70,000 user ids in a JSON body were a 500.
 */
export const MAX_LIST_ITEMS = 1000;

/**
 * Items that each become one term of an OR or AND chain (months, dates, message pairs, title
 * parts, context_filters keys): SQLite parses a chain of n terms n levels deep and refuses more
 * than 1,000 levels.
 */
export const MAX_ALTERNATIVES = 100;

/** Largest value both databases store in an `integer` column (PostgreSQL's int4): larger ids cannot exist. */
export const MAX_DB_INT = 2147483647;
