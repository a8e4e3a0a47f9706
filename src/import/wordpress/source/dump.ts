// `--from dump.sql[.gz]`: the dump is loaded into a temporary database on the `--scratch`
// server by the server's own client program (mariadb or mysql), which reads dumps of any size
// as a stream, and dropped again after the run.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import mysql from 'mysql2/promise';
import { ImportError } from '../errors.ts';
import { describeSourceError, parseMysqlUrl } from './connection.ts';

function clientProgram(): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    for (const name of ['mariadb', 'mysql']) if (dir && fs.existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  }
  throw new ImportError('loading a dump needs the mariadb or mysql client program on the PATH');
}

export async function loadDump(
  file: string,
  scratchUrl: string,
  log: NodeJS.WritableStream,
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile())
    throw new ImportError(`--from: ${file} is neither a mysql:// URL nor a file`);
  const database = `content_site_import_${crypto.randomBytes(4).toString('hex')}`;
  const scratch = new URL(scratchUrl.replace(/\/*$/, '/'));
  const { address, password } = parseMysqlUrl(new URL(database, scratch).toString());
  const admin = await mysql
    .createConnection({ host: address.host, port: address.port, user: address.user, password })
    .catch((err: unknown) => {
      throw new ImportError(describeSourceError(err, address).replace('WordPress database', 'scratch server'));
    });
  const drop = async () => {
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``).catch(() => {});
    await admin.end().catch(() => {});
  };
  try {
    await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    log.write(`loading ${file} into ${address.host}:${address.port}/${database}\n`);
    const child = spawn(
      clientProgram(),
      [`--host=${address.host}`, `--port=${address.port}`, `--user=${address.user}`, database],
      {
        stdio: ['pipe', 'ignore', 'pipe'],
        env: { ...process.env, MYSQL_PWD: password },
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    const input = fs.createReadStream(file);
    // The rows in one transaction (a dump's DDL commits by itself): a commit per INSERT waits for the disk each time.
    const wrapped = async function* (sql: AsyncIterable<Buffer>) {
      yield 'SET autocommit = 0; SET unique_checks = 0; SET foreign_key_checks = 0;\n';
      for await (const chunk of sql) yield chunk;
      yield '\nCOMMIT;\n';
    };
    const piped = file.endsWith('.gz')
      ? pipeline(input, zlib.createGunzip(), wrapped, child.stdin)
      : pipeline(input, wrapped, child.stdin);
    await piped.catch((err: Error) => {
      throw new ImportError(`${file}: cannot be read as a dump (${err.message})`);
    });
    const code = await exited;
    if (code !== 0) throw new ImportError(`${file}: the dump did not load: ${stderr.trim().split('\n')[0]}`);
    return {
      url: `mysql://${encodeURIComponent(address.user)}:${encodeURIComponent(password)}@${address.host}:${address.port}/${database}`,
      drop,
    };
  } catch (err) {
    await drop();
    throw err;
  }
}
