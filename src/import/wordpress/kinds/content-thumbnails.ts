// Featured images of the content import (content.ts): read from the source's postmeta in one
// query per batch, and turned into our thumbnail fields, their files copied from --uploads.
import fs from 'node:fs';
import path from 'node:path';
import type { ImportContext } from '../context.ts';
import type { KindReport } from '../report.ts';
import { phpValue } from '../source/php.ts';
import type { ItemFields } from './content-items.ts';

export interface Attachment {
  file: string;
  width: number;
  height: number;
}

/** Featured images of the posts: post id → the attachment's file and size. */
export async function thumbnailsOf(ctx: ImportContext, ids: number[]): Promise<Map<number, Attachment>> {
  const out = new Map<number, Attachment>();
  if (!ids.length) return out;
  const meta = ctx.wp.table('postmeta');
  const rows = await ctx.wp.db.query<{ post_id: number; file: string | null; metadata: string | null }>(
    `SELECT t.post_id, f.meta_value AS file, m.meta_value AS metadata FROM ${meta} t
       LEFT JOIN ${meta} f ON f.post_id = t.meta_value AND f.meta_key = '_wp_attached_file'
       LEFT JOIN ${meta} m ON m.post_id = t.meta_value AND m.meta_key = '_wp_attachment_metadata'
     WHERE t.meta_key = '_thumbnail_id' AND t.post_id IN (?)`,
    [ids],
  );
  for (const r of rows) {
    if (!r.file) continue;
    const md = phpValue(r.metadata) as { width?: unknown; height?: unknown } | undefined;
    out.set(Number(r.post_id), {
      file: String(r.file),
      width: Number(md?.width) || 0,
      height: Number(md?.height) || 0,
    });
  }
  return out;
}

/** The featured image as our thumbnail; its file is copied from --uploads into DATA_DIR/uploads. */
export async function thumbnailFields(
  ctx: ImportContext,
  report: KindReport,
  a: Attachment | undefined,
  base: string,
): Promise<Pick<ItemFields, 'thumbnail_url' | 'thumbnail_width' | 'thumbnail_height'>> {
  const none = { thumbnail_url: null, thumbnail_width: null, thumbnail_height: null };
  if (!a) return none;
  const relative = path.posix.normalize(a.file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    report.skip('featured image with a path outside the uploads folder');
    return none;
  }
  if (!ctx.uploadsDir) {
    report.note(
      'featured images are linked, but their files were not copied: give --uploads <wp-content/uploads folder>',
    );
  } else if (!ctx.dryRun) {
    const from = path.join(ctx.uploadsDir, relative);
    const to = path.join(ctx.app.config.dataDir, 'uploads', relative);
    if (fs.existsSync(from)) {
      await fs.promises.mkdir(path.dirname(to), { recursive: true });
      await fs.promises.copyFile(from, to);
    } else {
      report.note(`featured image file ${relative} is not in the uploads folder`);
    }
  }
  const sized = a.width >= 1 && a.width <= 10000 && a.height >= 1 && a.height <= 10000;
  return {
    thumbnail_url: `${base}/uploads/${relative}`,
    thumbnail_width: sized ? a.width : null,
    thumbnail_height: sized ? a.height : null,
  };
}
