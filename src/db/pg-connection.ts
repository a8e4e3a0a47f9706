// The connection config every PostgreSQL pool starts from. node-postgres lets an `options`
// parameter of the connection string replace the config's `options`, and given options replace
// PGOPTIONS: a DATABASE_URL selecting its schema with `?options=-c search_path=…` silently
// dropped the read pool's statement_timeout (reads of 50 s and more, requests cut off by the
// server's request timeout with no answer). So the string's options are taken out of it once,
// and every server option a pool needs is given in one list.
import type pg from 'pg';

/**
 * The config for `url`: its `options` parameter (else PGOPTIONS) first, then `extra` (a schema's
 * search_path); the string without that parameter.
 */
export function postgresConnection(url: string, extra?: string): pg.PoolConfig {
  const { connectionString, fromString } = withoutOptions(url);
  const options = serverOptions(fromString ?? process.env.PGOPTIONS, extra);
  return { connectionString, ...(options ? { options } : {}) };
}

/** `config` with `extra` after its server options (`config` from postgresConnection). */
export function withServerOption(config: pg.PoolConfig, extra: string): pg.PoolConfig {
  return { ...config, options: serverOptions(config.options, extra) };
}

function serverOptions(...parts: (string | undefined)[]): string | undefined {
  return parts.filter(Boolean).join(' ') || undefined;
}

/** A connection string without its `options` parameter, and that parameter (undefined: none, or not a URL). */
function withoutOptions(connectionString: string): { connectionString: string; fromString?: string } {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return { connectionString };
  }
  const fromString = url.searchParams.get('options');
  if (fromString === null) return { connectionString };
  url.searchParams.delete('options');
  return { connectionString: url.toString(), fromString };
}
