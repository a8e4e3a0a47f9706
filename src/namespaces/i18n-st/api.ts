// String translation as other modules may use it: registering and translating strings,
// languages, packages, and the translation plugin's key-value store.
export { kvGet, kvGetJson, kvSet } from './kv.ts';
export { ACTIVE_LANGUAGES, isActiveLanguage, languageName } from './languages.ts';
export { registerPackage } from './packages.ts';
export { queueAutoregisteredString } from './capture.ts';
export { registerString, saveStringTranslation, SOURCE_BACKEND, SOURCE_FRONTEND, STATUS } from './registry.ts';
export { findStringId, translateString, translateStrings } from './string-lookup.ts';
