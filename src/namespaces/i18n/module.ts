// The translation plugin's configuration (i18n/v1); keeps the admin texts named by the custom
// XML configuration in step with the site options.
import type { SiteModule } from '../../site/module.ts';
import { i18nNamespace } from './routes.ts';
import { i18nLogger } from './logger.ts';
import { syncAdminTexts } from './xml-config.ts';

export const i18nModule: SiteModule = {
  name: 'i18n',
  namespaces: [i18nNamespace],
  loggers: [i18nLogger],
  // Options named as admin texts by the custom XML configuration are translatable strings:
  // their source values in the string registry follow the options.
  onOptionsChange: async (app) => {
    await syncAdminTexts(app);
  },
};
