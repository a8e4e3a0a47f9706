// sched as other modules may use it (the importer): the settings sections and their store.
export { prepareSectionWrite, SECTION_BY_SLUG, type SettingsCtx } from './settings.ts';
export { loadSections, saveSection } from './store.ts';
