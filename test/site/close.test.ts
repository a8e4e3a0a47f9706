// Closing the app finishes the work that option changes start in the background (the admin
// texts of the custom XML configuration are re-registered after every change): a CLI command
// that sets options and exits at once must neither lose that work nor log it as failed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { openApp } from '../../src/app.ts';
import { createPgSchema, dropPgSchema } from '../../src/db/index.ts';
import { adminTextKey, applyCustomXml } from '../../src/namespaces/i18n/xml-config.ts';
import { findStringId } from '../../src/namespaces/i18n-st/string-lookup.ts';
import { dbTargets, PG_URL } from '../support/db.ts';

for (const target of dbTargets()) {
  describe(`closing the app (${target.name})`, () => {
    test('waits for the admin-text synchronisation an option change started', async () => {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-close-'));
      const schema = `t_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
      if (target.name === 'postgres') await createPgSchema(PG_URL!, schema);
      const lines: string[] = [];
      const logger = pino(
        { level: 'warn' },
        new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }),
      );
      const databaseUrl = target.name === 'postgres' ? PG_URL! : `sqlite:${path.join(tmp, 'site.db')}`;
      const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: tmp });
      const open = () => openApp(config, { logger, ...(target.name === 'postgres' ? { pgSchema: schema } : {}) });
      try {
        const first = await open();
        await applyCustomXml(first, '<wpml-config><admin-texts><key name="blogname"/></admin-texts></wpml-config>');
        await first.close();
        for (let i = 0; i < 5; i++) {
          const app = await open();
          await app.options.setMany({ blogname: `Site ${i}`, blogdescription: `Tagline ${i}` });
          await app.close();
        }
        assert.deepEqual(lines, []);
        const app = await open();
        try {
          const id = await findStringId(app, adminTextKey(['blogname']));
          const row = await app.db
            .selectFrom('i18n_st_strings')
            .select('value')
            .where('id', '=', id!)
            .executeTakeFirst();
          assert.equal(row?.value, 'Site 4', 'the last change reached the string registry');
        } finally {
          await app.close();
        }
      } finally {
        if (target.name === 'postgres') await dropPgSchema(PG_URL!, schema);
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    });
  });
}
