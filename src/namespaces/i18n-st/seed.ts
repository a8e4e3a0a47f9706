// Demo content of the string registry: registers the demo strings and packages (demo-strings.ts)
// with their translations. The benchmark's bulk generator is generate-strings.ts.
import type { AppServices } from '../../site/services.ts';
import { DEMO_PACKAGES, DEMO_STRINGS } from './demo-strings.ts';
import { registerPackage, refreshPackageWordCount, savePackageTranslation } from './packages.ts';
import { COMPONENT_TYPES, KIND_DEFAULT, STATUS, registerString, saveStringTranslation } from './registry.ts';

/** Seeds the demo strings and packages. Idempotent. */
export async function seedDemo(app: Pick<AppServices, 'db'>): Promise<{ strings: number; packages: number }> {
  let strings = 0;
  for (const d of DEMO_STRINGS) {
    const { de, en, status, reviewStatus, method, editor, ...input } = d;
    const { id } = await registerString(app, { kind: KIND_DEFAULT, ...input });
    strings++;
    const target = (input.language ?? 'en') === 'en' ? 'de' : 'en';
    const text = target === 'de' ? de : en;
    if (text !== undefined || status !== undefined) {
      await saveStringTranslation(app, id, target, {
        value: text ?? null,
        status: status ?? STATUS.COMPLETE,
        reviewStatus: reviewStatus ?? null,
        method: method ?? (text ? 'manual' : null),
        editor: editor ?? (text ? 'classic' : null),
      });
    }
  }
  for (const p of DEMO_PACKAGES) {
    const packageId = await registerPackage(app, {
      kind: p.kind,
      name: p.name,
      title: p.title,
      translatorNote: p.translatorNote,
      viewLink: '',
      editLink: '',
    });
    for (const s of p.strings) {
      const { id } = await registerString(app, {
        domain: `${p.kind}-${p.name}`,
        name: s.name,
        value: s.value,
        type: COMPONENT_TYPES.plugin,
        packageId,
      });
      strings++;
      if (s.de) await saveStringTranslation(app, id, 'de', { value: s.de, method: 'manual', editor: 'classic' });
    }
    await refreshPackageWordCount(app, packageId);
    await savePackageTranslation(app, packageId, 'de', {
      status: p.de,
      method: p.de ? 'local-translator' : null,
      editor: p.de ? 'ate' : null,
    });
  }
  return { strings, packages: DEMO_PACKAGES.length };
}
