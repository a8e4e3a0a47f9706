// sched as other modules may use it (the importer): the settings sections and their store.
export { prepareSectionWrite } from './settings.ts';
export { SECTION_BY_SLUG, type SettingsCtx } from './settings-sections.ts';
export { loadSections, saveSection } from './store.ts';
